import { spawnSync } from 'node:child_process';

/**
 * What xmllint says is wrong with `xml` under the XSD at `schemaPath` (empty when it validates). SOAP carriers'
 * tests check each operation element their client writes against the carrier's published schema this way.
 */
export function xsdErrors(xml: string, schemaPath: string): string[] {
  const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schemaPath, '-'], { input: xml, encoding: 'utf8' });
  if (run.error) throw run.error;
  if (run.status === 0) return [];
  return run.stderr.split('\n').filter((line) => line.trim() !== '' && !/ fails to validate$/.test(line));
}

/** The operation element of a recorded SOAP envelope (what the carrier's XSD declares) and its name; '' and '?' where there is none. */
export function soapOperation(envelope: string | undefined): { name: string; element: string } {
  const element = /<(?:soap|SOAP-ENV):Body>([\s\S]*)<\/(?:soap|SOAP-ENV):Body>/.exec(envelope ?? '')?.[1] ?? '';
  return { name: /^<ns:(\w+)/.exec(element)?.[1] ?? '?', element };
}
