import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { detectTranscriptKind, parseTranscript } from '../src/transcript/load.js';
import { playTranscript } from '../src/transcript/playback.js';
import type { TranscriptCall } from '../src/transcript/types.js';
import { FIXTURES } from './helpers/paths.js';

// Both fixtures are hand-made for these tests, following the public formats (see docs/session.md).
const claudeText = readFileSync(join(FIXTURES, 'sessions', 'claude-code.jsonl'), 'utf8');
const openaiText = readFileSync(join(FIXTURES, 'sessions', 'openai-chat.json'), 'utf8');

describe('transcript import', () => {
  it('detects each format from its content', () => {
    assert.equal(detectTranscriptKind(claudeText), 'claude-code');
    assert.equal(detectTranscriptKind(openaiText), 'openai-chat');
    assert.equal(detectTranscriptKind('{"tool":"a","output":1}\n'), 'devboy');
    assert.equal(detectTranscriptKind('{"role":"tool","tool_call_id":"x","content":"hi"}\n'), 'openai-chat');
  });

  it('claude-code: pairs tool_use with tool_result, keeps is_error, one boundary per compaction, skips sub-agent (sidechain) calls', () => {
    const { entries } = parseTranscript(claudeText, 'auto');
    assert.deepEqual(
      entries.map((e) => (e.kind === 'boundary' ? `boundary@${e.line}` : `${e.tool}${e.isError ? '!' : ''}@${e.line}`)),
      [
        'mcp__github__list_issues@4',
        'mcp__github__get_issue!@6',
        'mcp__github__list_issues@8',
        'boundary@11',
        'mcp__github__list_issues@14',
        'Bash@16',
      ],
    );
    const calls = entries.filter((e): e is TranscriptCall => e.kind === 'call');
    assert.deepEqual(calls[0]!.args, { owner: 'betamaxpy', repo: 'betamax', state: 'open' });
    // Tool text that is one JSON document becomes JSON; a text block list and a bare string give the same value.
    assert.ok(Array.isArray(calls[0]!.output));
    assert.deepEqual(calls[0]!.output, calls[2]!.output);
    assert.equal(typeof calls[1]!.output, 'string');
    assert.match(calls[4]!.output as string, /^a1b2c3d Fix cassette/);
  });

  it('openai-chat: maps tool_call_id to the function name and its JSON arguments', () => {
    const { entries } = parseTranscript(openaiText, 'openai-chat');
    const calls = entries as TranscriptCall[];
    assert.deepEqual(
      calls.map((c) => c.tool),
      ['list_issues', 'get_labels', 'list_issues', 'read_file'],
    );
    assert.deepEqual(calls[3]!.args, { path: 'README.rst' });
    assert.deepEqual(calls[1]!.output, [{ name: 'bug' }, { name: 'docs' }]);
    assert.ok(calls.every((c) => !c.isError));
  });

  it('imported sessions play back: the repeat after compaction is sent again, the one before is a ref', async () => {
    const { entries } = parseTranscript(claudeText, 'claude-code');
    const r = await playTranscript(entries, { format: 'json-compact', tokenizer: 'o200k_base' });
    assert.deepEqual(
      r.per_call.map((c) => c.hit),
      [false, false, true, false, false],
    );
    assert.equal(r.per_call[2]!.ref, r.per_call[0]!.id);
    assert.equal(r.per_call[3]!.id, r.per_call[0]!.id); // same content, same id, sent in full again
    assert.equal(r.boundaries, 1);
  });

  it('a transcript read as the wrong kind is an error, not an empty report', () => {
    assert.throws(
      () => parseTranscript(claudeText, 'openai-chat', 'cc.jsonl'),
      (err: Error & { oneLine: () => string }) => {
        assert.equal(err.oneLine(), 'cc.jsonl: no tool calls found (read as openai-chat)');
        return true;
      },
    );
  });

  it('a bad line in a transcript names file, line and column', () => {
    const broken = claudeText.split('\n').slice(0, 3).concat('{"type":"user","message":{"role":"user",}}').join('\n');
    assert.throws(
      () => parseTranscript(broken, 'claude-code', 'cc.jsonl'),
      (err: Error & { oneLine: () => string }) => {
        assert.equal(err.oneLine(), "cc.jsonl:4:41: invalid JSON: unexpected '}' (expected a property name in double quotes)");
        return true;
      },
    );
  });
});
