"""--screenshots: every screen of the app at 390×844, as docs/app-*.png show it."""

import os
import time

from .deps import By


def screenshots(args, d, app, st):
    out = args.screenshot_dir
    os.makedirs(out, exist_ok=True)
    shots = []

    def shot(name):
        time.sleep(0.4)
        app.wait("the toast to go", lambda: app.js("return document.getElementById('toast').hidden"), 10)
        path = os.path.join(out, name)
        d.save_screenshot(path)
        shots.append(path)

    d.refresh()
    app.wait_drawn()
    app.wait_synced(60)
    # The banner (storage not persisted: a browser tab, not an installed app) closed, as a person
    # would after reading it once; it shows again at every start.
    if app.js("return !document.getElementById('banner').hidden"):
        app.click("banner-close")
    # 地図 around 小田原 (「この駅を地図の中心に表示」): the whole of Japan, as the map first
    # opens, shows the completed lines only as a few red dots under the count bubbles.
    app.open_station(st["odawara_jrc"]["id"], "おだわら")
    app.show_on_map()
    time.sleep(0.5)
    shot("app-map.png")
    # 現在地 at 小田原駅, with the nearest station not yet completed chosen (its today button shown).
    app.tab("nearby")
    app.wait("the nearby list", lambda: app.js("return document.querySelectorAll('[data-testid=nearby-list] li').length > 0"), 30)
    undone = d.find_elements(By.CSS_SELECTOR, '[data-testid="nearby-list"] li:has(.mark:not(.done))')
    if undone:
        undone[0].click()
        app.wait_today_button()
    app.js("document.getElementById('screen-nearby').scrollTop = 0")
    shot("app-nearby.png")
    app.search("おだわら")
    app.wait("search results", lambda: app.js("return document.querySelectorAll('[data-testid=search-results] li').length > 0"))
    time.sleep(0.3)
    app.js("document.activeElement && document.activeElement.blur()")
    shot("app-search.png")
    app.open_station(st["odawara_jrc"]["id"], "おだわら")
    app.js("document.getElementById('screen-station').scrollTop = 0")
    shot("app-station.png")
    app.tab("stats")
    app.wait("the statistics", lambda: app.js("return document.querySelectorAll('[data-testid=stats-list] li').length > 0"))
    # 全事業者 starts with the operator types: JR旅客会社 holds 東海旅客鉄道 (東海道新幹線, completed).
    items = d.find_elements(By.CSS_SELECTOR, '[data-testid="stats-list"] li')
    item = next((li for li in items if "JR" in li.text), items[0])
    app.js("arguments[0].scrollIntoView({block: 'center'})", item)
    item.click()
    app.wait("one level down", lambda: app.js("return !document.getElementById('stats-back').hidden"))
    app.js("document.getElementById('screen-stats').scrollTop = 0")
    shot("app-stats.png")
    app.tab("sync")
    app.click("sync-now")
    app.wait_synced(60)
    shot("app-sync.png")
    return shots
