import { performance } from 'node:perf_hooks';
import type { Format, FormatName } from '../formats/types.js';
import type { JsonValue } from '../json/types.js';
import { canonicalBody, digestBody, idHeader, refLine } from '../transcript/canonical.js';
import { DedupIndex, type DedupDecision } from '../transcript/dedup.js';
import type { DedupOptions } from '../transcript/types.js';
import { int } from '../text/words.js';
import type { Tokenizer } from '../tokens/types.js';
import type { LedgerCall } from './ledger.js';
import { lowerToLevel, type Lowered, type ProxyLevel } from './level.js';
import { pageHint, planPages, type Paged } from './pages.js';
import { encodeValue, readJsonText, rewriteText, type TextVerdict } from './rewrite-text.js';
import { ResultStore } from './store.js';
import { CallRecorder, dedupOf, pagesRecord } from './call-record.js';

/** A tools/call result as it travels: only `content`, `isError` and text blocks are looked at; every other member is kept. */
export type ToolResult = { content?: unknown; isError?: unknown; [key: string]: unknown };
type TextBlock = { type: 'text'; text: string; [key: string]: unknown };

export interface ShapeSettings {
  /** The formats to try (proxyFormats): one, or the candidates for --format auto. */
  formats: readonly Format[];
  /** --tokenizer: chooses the format and decides "fewer". */
  tokenizer: Tokenizer;
  /** --tokenizers: every ledger count is made under each (the first is --tokenizer). */
  counters: readonly Tokenizer[];
  maxResultBytes: number;
  budget: number | null;
  /** --level: known provider lists lowered to this detail level (lossy by choice, labelled). */
  level: ProxyLevel | null;
  dedup: DedupOptions | null;
  /** Explainer text per format that needs one; empty with --no-explainer. */
  explainers: ReadonlyMap<FormatName, string>;
  /** Whether a tool's results may be rewritten (--skip-tools, --only-tools). */
  toolRule: (tool: string) => { rewrite: boolean; why?: string };
  /** The tool the proxy adds: pages and dedup ids are fetched through it. */
  addedTool: string;
  /** Most UTF-16 units of results held for the added tool. */
  storeChars: number;
}

export interface Shaped {
  result: ToolResult;
  record: LedgerCall;
}

/**
 * The proxy's state for one agent session: which bodies the model has (dedup), which results it can
 * fetch again (pages and ids), which explainers it was given. Each call's result is shaped here and
 * described by one ledger line; the bridge only moves messages.
 */
export class ResultShaper {
  private readonly dedup: DedupIndex | null;
  private readonly store: ResultStore;
  /** Tokens (under --tokenizer) of what was sent with an id: a ref is only used when smaller. */
  private readonly shownTokens = new Map<string, number>();
  private readonly explained = new Set<FormatName>();
  /** The ledger lines, and the counts of the result being shaped. */
  private readonly recorder: CallRecorder;

  constructor(private readonly settings: ShapeSettings) {
    this.dedup = settings.dedup ? new DedupIndex(settings.dedup) : null;
    this.store = new ResultStore(settings.storeChars);
    this.recorder = new CallRecorder(settings.counters);
  }

  /** The result the model gets for a tools/call the upstream answered. */
  shape(tool: string, args: unknown, result: ToolResult): Shaped {
    try {
      return this.shapeCounted(tool, args, result);
    } finally {
      this.recorder.clear();
    }
  }

  private shapeCounted(tool: string, args: unknown, result: ToolResult): Shaped {
    const started = performance.now();
    const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
    const texts = content.filter(isTextBlock);
    const before = texts.map((b) => b.text);
    const rule = this.settings.toolRule(tool);
    const tooBig = before.find((t) => t.length > this.settings.maxResultBytes || Buffer.byteLength(t) > this.settings.maxResultBytes);
    // Not parsed, not counted: bounded time and memory whatever the upstream sends.
    if (tooBig !== undefined) {
      const base = this.recorder.start(tool, args, [], before);
      const note = `not counted: ${Buffer.byteLength(tooBig)} bytes passed through unchanged`;
      return { result, record: this.recorder.finish(base, started, { outcome: 'kept', why: 'over --max-result-mb', after: 'same', note }) };
    }
    const base = this.recorder.start(tool, args, before);
    const keep = (why: string, outcome: LedgerCall['outcome'] = 'kept'): Shaped => ({
      result,
      record: this.recorder.finish(base, started, { outcome, why, after: 'same' }),
    });
    if (!rule.rewrite) return keep(rule.why ?? 'kept exact');
    if (result.isError === true) return keep('isError result', 'error');
    if (texts.length === 0) return keep('no text block');
    if (texts.length === 1 && content.length === 1) return this.shapeOne(tool, result, texts[0]!, base, started);
    const verdicts = texts.map((b) => rewriteText(b.text, this.textSettings()));

    // Several blocks: each text is re-encoded on its own; dedup and pages need one body.
    let i = 0;
    const formats = new Set<FormatName>();
    const newContent = content.map((b) => {
      if (!isTextBlock(b)) return b;
      const v = verdicts[i++]!;
      if (v.kind !== 'encoded') return b;
      formats.add(v.format);
      return { ...b, text: v.text };
    });
    const explainer = this.explainerFor([...formats]);
    const sentContent = explainer ? [{ type: 'text', text: explainer.text }, ...newContent] : newContent;
    const after = sentContent.filter(isTextBlock).map((b) => b.text);
    const bodyTokens = newContent.filter(isTextBlock).reduce((n, b) => n + this.recorder.memo(this.settings.tokenizer).count(b.text), 0);
    const overBudget = this.sentWhole(bodyTokens, `the result has ${content.length} content blocks (a result of one text block is paged)`);
    const encoded = verdicts.filter((v) => v.kind === 'encoded');
    const why = verdicts.find((v): v is Extract<TextVerdict, { kind: 'kept' }> => v.kind === 'kept')?.reason ?? null;
    return {
      result: encoded.length ? { ...result, content: sentContent } : result,
      record: this.recorder.finish(
        { ...base, format: encoded.length ? (encoded[0] as { format: FormatName }).format : null, verified: encoded.length > 0 },
        started,
        {
          outcome: encoded.length ? 'encoded' : 'kept',
          why,
          after,
          explainer: explainer ? [explainer.text] : [],
          ...(overBudget ? { note: overBudget } : {}),
        },
      ),
    };
  }

  private shapeOne(tool: string, result: ToolResult, block: TextBlock, base: LedgerCall, started: number): Shaped {
    const s = this.settings;
    const read = readJsonText(block.text, s.maxResultBytes);
    const output = 'value' in read ? read.value : block.text;
    const decision = this.repeatDecision(tool, output);
    if (decision?.kind === 'ref') {
      const ref = refLine(decision.id);
      return {
        result: { ...result, content: [{ type: 'text', text: ref }] },
        record: this.recorder.finish({ ...base, dedup: 'ref', dedup_id: decision.id }, started, {
          outcome: 'ref',
          why: null,
          after: [ref],
        }),
      };
    }
    const id = decision && decision.kind !== 'plain' ? decision.id : digestBody(canonicalBody(output)).id;
    if (s.level && 'value' in read) {
      const trimmed = this.shapeAtLevel(result, block, read.value, s.level, id, base, started);
      if (trimmed) return trimmed;
    }
    // Encoded only now: a repeat answered by a ref costs a parse, not an encoding in every format.
    const v: TextVerdict =
      'value' in read ? encodeValue(block.text, read.value, this.textSettings()) : { kind: 'kept', reason: read.reason };
    return this.shapeVerdict(result, block, v, decision, id, base, started);
  }

  /**
   * Dedup's word on this output: a ref only when it is smaller than what the model was shown and the
   * added tool can still hand that back; otherwise the body is sent again as a first showing.
   */
  private repeatDecision(tool: string, output: JsonValue | string): DedupDecision | null {
    const decision: DedupDecision | null = this.dedup ? this.dedup.decide({ kind: 'call', tool, output, isError: false }) : null;
    if (decision?.kind !== 'ref') return decision;
    const earlier = this.shownTokens.get(decision.id);
    // Never make it bigger; and only refer to what the added tool can still hand back.
    if (
      earlier !== undefined &&
      this.recorder.memo(this.settings.tokenizer).count(refLine(decision.id)) < earlier &&
      this.store.get(decision.id)
    )
      return decision;
    return { kind: 'first', id: decision.id };
  }

  /** One text block as encoded (or kept), with the explainer and id header it needs, paged with --budget. */
  private shapeVerdict(
    result: ToolResult,
    block: TextBlock,
    v: TextVerdict,
    decision: DedupDecision | null,
    id: string,
    base: LedgerCall,
    started: number,
  ): Shaped {
    const body = v.kind === 'encoded' ? v.text : block.text;
    const paging = this.pagesFor(body, v.kind === 'encoded' ? { value: v.value, format: v.format } : { why: v.reason }, id);
    const pages = paging.paged?.pages;
    const explainer = v.kind === 'encoded' ? this.explainerFor([v.format]) : undefined;
    const header = decision?.kind === 'first' ? idHeader(decision.id) : undefined;
    const { sent, shownBody } = this.compose(block, body, pages, explainer, header, id);
    const changed = v.kind === 'encoded' || sent.length > 1;
    const encoded = v.kind === 'encoded';
    return {
      result: changed ? { ...result, content: sent } : result,
      record: this.recorder.finish(
        {
          ...base,
          format: encoded ? v.format : null,
          verified: encoded,
          pages: pagesRecord(id, paging.paged),
          dedup: dedupOf(decision),
          dedup_id: header !== undefined ? id : null,
        },
        started,
        {
          outcome: encoded ? 'encoded' : 'kept',
          why: v.kind === 'kept' ? v.reason : null,
          after: [...(explainer ? [explainer.text] : []), ...(header !== undefined ? [header] : []), shownBody],
          header: header !== undefined ? [header] : [],
          explainer: explainer ? [explainer.text] : [],
          ...(paging.note ? { note: paging.note } : {}),
        },
      ),
    };
  }

  /**
   * The blocks sent for one text: its explainer, its id header, and the body (its first page when
   * paged). A body shown with an id, or paged, is held for the added tool.
   */
  private compose(
    block: TextBlock,
    body: string,
    pages: string[] | undefined,
    explainer: { text: string } | undefined,
    header: string | undefined,
    id: string,
  ): { sent: unknown[]; shownBody: string } {
    const sent: unknown[] = [];
    if (explainer) sent.push({ type: 'text', text: explainer.text });
    if (header !== undefined) sent.push({ type: 'text', text: header });
    const shownBody = pages ? pages[0]! : body;
    sent.push({ ...block, text: shownBody });
    if (header !== undefined || pages) this.store.put(id, { whole: body, ...(pages ? { pages } : {}) });
    const counter = this.recorder.memo(this.settings.tokenizer);
    if (header !== undefined) this.shownTokens.set(id, counter.count(header) + counter.count(shownBody));
    return { sent, shownBody };
  }

  /**
   * --level: a provider result lowered to a detail level, encoded and verified as that lowered value
   * (paged with --budget like any other), with a line saying so, naming any items left out, and how to
   * get the upstream's whole result (held under `id`). Null when the value is nothing devboy models or
   * the lowered value would not be smaller.
   */
  private shapeAtLevel(
    result: ToolResult,
    block: TextBlock,
    value: JsonValue,
    level: ProxyLevel,
    id: string,
    base: LedgerCall,
    started: number,
  ): Shaped | null {
    const lowered = lowerToLevel(value, level);
    if (!lowered) return null;
    const v = encodeValue(block.text, lowered.value, this.textSettings());
    if (v.kind !== 'encoded') return null;
    const paging = this.pagesFor(v.text, { value: v.value, format: v.format }, id);
    const shown = paging.paged ? paging.paged.pages[0]! : v.text;
    const label = levelLabel(lowered, level, this.settings.addedTool, id);
    const explainer = this.explainerFor([v.format]);
    this.store.put(id, { whole: block.text, ...(paging.paged ? { pages: paging.paged.pages } : {}) });
    const sent = [...(explainer ? [explainer.text] : []), label, shown];
    const left = lowered.leftOut;
    const note = [
      `${level} detail by --level: lossy by choice${left ? `, ${left.items} ${left.what} left out` : ''}; the text decodes to the lowered items (checked)`,
      paging.note,
    ];
    return {
      result: { ...result, content: [...sent.slice(0, -1).map((text) => ({ type: 'text', text })), { ...block, text: shown }] },
      record: this.recorder.finish(
        // Not `verified`: the text is not the upstream's value, by choice.
        { ...base, format: v.format, verified: false, level, left_out: left, pages: pagesRecord(id, paging.paged), dedup_id: id },
        started,
        {
          outcome: 'lowered',
          why: null,
          after: sent,
          explainer: explainer ? [explainer.text] : [],
          note: note.filter((n) => n !== undefined).join('; '),
        },
      ),
    };
  }

  /**
   * With --budget, a body over it: its pages, or why it goes whole (the ledger's note, and standard
   * error, say so: a budget is never dropped silently). Pages with an item too large for any page
   * are noted too.
   */
  private pagesFor(
    body: string,
    source: { value: JsonValue; format: FormatName } | { why: string },
    id: string,
  ): { paged?: Paged; note?: string } {
    const s = this.settings;
    if (s.budget === null) return {};
    const tokenizer = this.recorder.memo(s.tokenizer);
    const tokens = tokenizer.count(body);
    if (tokens <= s.budget) return {};
    if ('why' in source) return { note: this.sentWhole(tokens, `the upstream's text goes through unchanged (${source.why})`) };
    const format = s.formats.find((f) => f.name === source.format)!;
    const plan = planPages(source.value, format, tokenizer, s.budget, pageHint(s.addedTool, id));
    if ('unpaged' in plan) return { note: this.sentWhole(tokens, plan.unpaged) };
    const { over, pages } = plan.paged;
    if (over.length === 0) return { paged: plan.paged };
    const why = over.every((o) => o.limit === 1) ? 'each holds one item larger than a page' : 'the chunk planner could not fit them all';
    return {
      paged: plan.paged,
      note: `${over.length} of ${pages.length} pages over --budget ${s.budget}: ${why} (page${over.length > 1 ? 's' : ''} ${over.map((o) => o.page).join(', ')})`,
    };
  }

  /** The note on a body over --budget that goes whole, and why; undefined when there is no budget or it is within. */
  private sentWhole(tokens: number, why: string): string | undefined {
    const { budget, tokenizer } = this.settings;
    if (budget === null || tokens <= budget) return undefined;
    return `over --budget (${int(tokens)} ${tokenizer.name} tokens, budget ${budget}), sent whole: not paged: ${why}`;
  }

  /** The added tool: a page, or the whole result, of an id the model was shown. */
  fetch(args: unknown): Shaped {
    try {
      return this.fetchCounted(args);
    } finally {
      this.recorder.clear();
    }
  }

  private fetchCounted(args: unknown): Shaped {
    const started = performance.now();
    const base = this.recorder.start(this.settings.addedTool, args, []);
    const a = (typeof args === 'object' && args !== null ? args : {}) as { id?: unknown; page?: unknown };
    const fail = (text: string): Shaped => ({
      result: { content: [{ type: 'text', text }], isError: true },
      record: this.recorder.finish(base, started, { outcome: 'fetched', why: text, after: [text] }),
    });
    if (typeof a.id !== 'string') return fail('give "id": the id shown with the result (shadow_...)');
    const held = this.store.get(a.id);
    if (!held) return fail(`no result with id ${JSON.stringify(a.id)} is held any more: call the original tool again`);
    let text: string;
    if (a.page === undefined) text = held.whole;
    else {
      const n = a.page;
      const pages = held.pages ?? [held.whole];
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > pages.length)
        return fail(`"page" must be a whole number from 1 to ${pages.length}`);
      text = pages[n - 1]!;
    }
    return {
      result: { content: [{ type: 'text', text }] },
      record: this.recorder.finish({ ...base, dedup_id: a.id }, started, { outcome: 'fetched', why: null, after: [text] }),
    };
  }

  /** A tools/call that got no result: a JSON-RPC error from the upstream, a timeout, a fault. */
  failed(tool: string, args: unknown, message: string): LedgerCall {
    const record = this.recorder.finish(this.recorder.start(tool, args, []), performance.now(), {
      outcome: 'error',
      why: message,
      after: [],
    });
    this.recorder.clear();
    return record;
  }

  private textSettings() {
    return {
      formats: this.settings.formats,
      tokenizer: this.recorder.memo(this.settings.tokenizer),
      maxBytes: this.settings.maxResultBytes,
    };
  }

  /** The explainer of the first of `formats` the model has not been taught yet, once per session. */
  private explainerFor(formats: readonly FormatName[]): { text: string } | undefined {
    for (const f of formats) {
      const text = this.settings.explainers.get(f);
      if (text === undefined || this.explained.has(f)) continue;
      this.explained.add(f);
      return { text };
    }
    return undefined;
  }
}

function isTextBlock(b: unknown): b is TextBlock {
  return (
    typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string'
  );
}

/** The line above a lowered result: what it holds, at which level, what was left out, where the whole is. */
function levelLabel(l: Lowered, level: ProxyLevel, tool: string, id: string): string {
  const where = l.member ? ` in the result's ${JSON.stringify(l.member)} (its other members as sent)` : '';
  const left = l.leftOut ? `; left out: ${l.leftOut.items} ${l.leftOut.what} (${l.leftOut.keys.join(', ')})` : '';
  return `[devboy proxy: ${l.holds} at ${level} detail (fields left out by choice)${where}${left}; the upstream's whole result: ${tool} {"id": "${id}"}]`;
}
