// One tap acts once: a tap that opens a screen must not also press what appears under the finger
// (the click that follows a touch, a second tap of a double tap meant for the map). Buttons that
// change data are disabled for a short moment after their screen appeared or changed station,
// visibly, and a disabled button receives no click (Schemas/phone-app.md "A tap acts once").

/** Long enough to swallow the click that follows a touch and a double tap; short for a person. */
export const SETTLE_MS = 500;

export class ActivationGuard {
  /**
   * @param {(settled: boolean) => void} onChange called when the moment starts and when it ends
   * @param {(fn: () => void, ms: number) => unknown} [schedule]
   */
  constructor(onChange, schedule = (fn, ms) => setTimeout(fn, ms)) {
    this.onChange = onChange;
    this.schedule = schedule;
    this.settling = false;
    this.generation = 0;
  }

  /** The screen appeared or now shows something else: buttons rest for SETTLE_MS. */
  arm() {
    const generation = ++this.generation;
    this.settling = true;
    this.onChange(false);
    this.schedule(() => {
      if (generation !== this.generation) return; // armed again meanwhile: that moment ends it
      this.settling = false;
      this.onChange(true);
    }, SETTLE_MS);
  }

  /** Whether an activation now is a person's deliberate tap on what they see. */
  settled() {
    return !this.settling;
  }
}
