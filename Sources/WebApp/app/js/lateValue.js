// A value that comes later (the screens main.js loads after the map's first frame): what needs it
// before it comes runs when it comes, in the order it asked, never lost; afterwards at once.

/** @template T */
export class LateValue {
  constructor() {
    /** @type {{value: T} | null} */
    this.came = null;
    /** @type {((value: T) => void)[]} */
    this.waiting = [];
  }

  /**
   * Runs `use` with the value: at once when it has come, else when it comes.
   * @param {(value: T) => void} use
   */
  use(use) {
    if (this.came) use(this.came.value); else this.waiting.push(use);
  }

  /**
   * The value came: runs what waited for it, in order (once; a second value is refused).
   * @param {T} value
   */
  arrive(value) {
    if (this.came) throw new Error('the value came already');
    this.came = { value };
    for (const use of this.waiting.splice(0)) use(value);
  }
}
