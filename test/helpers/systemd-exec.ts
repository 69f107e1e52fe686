/** C escapes systemd takes in ExecStart (`\n`, `\t`, `\\`, `\"`, `\'`, `\xHH` …). */
const C_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'", s: ' ' };

/**
 * The words systemd runs for an ExecStart value (systemd.service(5), "Command lines"): `%%` is `%`, whitespace splits
 * words outside quotes, quotes are removed, C escapes are read, then `$$` is `$`. Throws where systemd would do
 * something else with the text: other specifiers, variables, a raw newline or a `;` separator.
 */
export function execStartWords(value: string): string[] {
  if (value.includes('\n')) throw new Error('a raw newline ends the unit line');
  if (value.replace(/%%/g, '').includes('%')) throw new Error(`an unescaped specifier in ${value}`);
  const text = value.replace(/%%/g, '%');
  const words: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /[ \t]/.test(text[i]!)) i++;
    if (i >= text.length) break;
    let word = '';
    let quoted = false;
    let quote: string | undefined;
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (!quote && /[ \t]/.test(c)) break;
      if (c === '\\') {
        const next = text[++i];
        if (next === undefined) throw new Error('a trailing backslash continues the line');
        if (next === 'x') {
          word += String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16));
          i += 2;
        } else if (C_ESCAPES[next] !== undefined) {
          word += C_ESCAPES[next];
        } else {
          throw new Error(`an unknown escape \\${next}`);
        }
      } else if (quote && c === quote) {
        quote = undefined;
      } else if (!quote && (c === '"' || c === "'")) {
        quote = c;
        quoted = true;
      } else {
        word += c;
      }
    }
    if (quote) throw new Error(`an unterminated quote in ${value}`);
    if (!quoted && word === ';') throw new Error('a lone ; separates commands');
    if (word.replace(/\$\$/g, '').includes('$')) throw new Error(`a variable in ${word}`);
    words.push(word.replace(/\$\$/g, '$'));
  }
  return words;
}
