import type { CarrierProgress } from './types.js';

/**
 * A hand-over's progress as one step's helper (markedSend, bookPickupOnce) sees it: the step saves only its `own`
 * place (or nothing, to clear it), and each save keeps what the other steps saved.
 */
export function stepProgress(progress: CarrierProgress, own: string): CarrierProgress {
  return {
    load: () => progress.load(),
    save: (mine) => {
      const { [own]: _replaced, ...others } = progress.load() ?? {};
      return progress.save({ ...others, ...mine });
    },
  };
}
