/** pdf-lib, loaded at the first PDF the process reads or writes: a daemon starts without it (~0.17 s of CPU). */
let loading: Promise<typeof import('pdf-lib')> | undefined;

export function pdfLib(): Promise<typeof import('pdf-lib')> {
  return (loading ??= import('pdf-lib'));
}
