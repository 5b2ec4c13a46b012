"""The phone app's benchmark in headless Chromium, run by Tools/app-bench.py through the wrapper
Tools/app-bench (which makes the virtual environment and says what is measured, how, and the exit
codes).

- common: exit codes, the error, the log, number formats and the Markdown table;
- deps: the WebDriver and WebSocket clients the wrapper installs;
- browser: a Chrome DevTools Protocol connection to every target of the browser;
- server: `oritsubushi server serve`, the CLI replica and the --app-dir proxy;
- app: the app in the page (the probe it records with, waits, clicks, writes, storage);
- session: the server, the replica and the browser set up, and the order of the measurements;
- first_table: rows 1–4 (first visit, edits, the offline open, the fold);
- map_rows: rows 5–7 (first paint, pans, the base map's bytes);
- screenshots: --screenshots;
- report: the two Markdown tables and the JSON file;
- cli: the options and the exit code.
"""
