/** The `^XA…^XZ` labels of a ZPL stream, each its exact bytes (read as latin1, so binary `^GF` data cannot break the scan). */
export function zplLabels(content: Uint8Array): Buffer[] {
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('latin1');
  return (text.match(/\^XA[\s\S]*?\^XZ/gi) ?? []).map((block) => Buffer.from(block, 'latin1'));
}
