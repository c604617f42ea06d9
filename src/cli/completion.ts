/** What completion needs to know of a command: its name and its visible flags. */
export interface CompletionCommand {
  id: string;
  flags: { name: string; char?: string; options?: string[] }[];
}

/**
 * A bash completion script (zsh runs it through bashcompinit) with every command, flag and flag
 * value written in: generated once by `devboy autocomplete`, so pressing Tab never starts Node and
 * devboy's start-up pays nothing for it. Anything not listed falls back to file names.
 */
export function bashCompletion(bin: string, commands: CompletionCommand[]): string {
  const ids = commands.map((c) => c.id).sort();
  const values: string[] = [];
  const flagLists: string[] = [];
  for (const c of commands) {
    for (const f of c.flags) {
      if (!f.options?.length) continue;
      const spellings = [`'${c.id} --${f.name}'`, ...(f.char ? [`'${c.id} -${f.char}'`] : [])].join('|');
      values.push(`    ${spellings}) words='${f.options.join(' ')}' ;;`);
    }
    const names = c.flags.flatMap((f) => [`--${f.name}`, ...(f.char ? [`-${f.char}`] : [])]);
    if (names.length) flagLists.push(`        ${c.id}) words='${names.join(' ')}' ;;`);
  }
  const fn = `_${bin.replace(/\W/g, '_')}_complete`;
  return [
    `# ${bin} completion for bash (zsh: after \`autoload -U +X bashcompinit && bashcompinit\`),`,
    `# written by \`${bin} autocomplete\`; \`${bin} help autocomplete\` says where to put it.`,
    `${fn}() {`,
    '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} words=',
    '  if [ "$COMP_CWORD" -eq 1 ]; then',
    `    words='${ids.join(' ')}'`,
    '  else',
    '    case "${COMP_WORDS[1]} $prev" in',
    ...values,
    '    *)',
    '      case "$cur" in',
    '      -*)',
    '        case "${COMP_WORDS[1]}" in',
    ...flagLists,
    '        esac ;;',
    `      *) [ "\${COMP_WORDS[1]}" = help ] && words='${ids.join(' ')}' ;;`,
    '      esac ;;',
    '    esac',
    '  fi',
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '}',
    `complete -o default -F ${fn} ${bin}`,
    '',
  ].join('\n');
}
