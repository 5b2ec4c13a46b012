// A screen or panel that draws itself only while it is shown: `show` draws it, `hide` stops the
// drawing, and `refresh` (the records or the catalogue changed) draws it again only while shown.

export class ShownView {
  constructor() {
    this.visible = false;
  }

  show() {
    this.visible = true;
    this.render();
  }

  hide() {
    this.visible = false;
  }

  /** The records or the catalogue changed. */
  refresh() {
    if (this.visible) this.render();
  }

  /** Draws the view: each subclass has its own drawing. */
  render() {}
}
