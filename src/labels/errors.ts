/** A label part that cannot be merged: not of the requested format, unreadable, or no parts at all. */
export class LabelFormatError extends Error {
  constructor(
    /** Position of the offending part in the input list; null when the list itself is wrong. */
    readonly partIndex: number | null,
    readonly reason: string,
  ) {
    super(partIndex === null ? reason : `Label part ${partIndex}: ${reason}`);
    this.name = 'LabelFormatError';
  }
}
