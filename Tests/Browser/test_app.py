"""Journey 7, the installed app: the manifest a browser installs Commons from (its fields, and
each icon an image of the size it declares), the service worker that takes the page over, and
the app opened again with the network cut: it shows the free feed, my lists and a list as this
device last saw them, says it is offline, and forgets my lists when I sign out. And a new
version served while the app is open: the app offers it, and Reload starts it.

The network is cut for the page and for its service worker (which DevTools treats as a target
of its own: cutting the page's alone would let the worker still reach Commons).
"""
import json
import re

from selenium.webdriver.common.by import By

from harness import Browser, JourneyTest, api


def fetch(browser: Browser, path: str) -> dict:
    """`path` fetched by the page: its status, content type, cache control and text."""
    return browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0], {cache: 'no-store'}).then(async (r) => done({status: r.status, type: r.headers.get('Content-Type'),"
        " cache: r.headers.get('Cache-Control'), text: await r.text()}), (e) => done({status: 0, text: String(e)}));", path)


def image_size(browser: Browser, path: str) -> list:
    """The natural [width, height] of the image at `path` as the browser decodes it ([0, 0] if it does not)."""
    return browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; const image = new Image();"
        "image.onload = () => done([image.naturalWidth, image.naturalHeight]); image.onerror = () => done([0, 0]);"
        "image.src = arguments[0];", path)


def wait_controlled(browser: Browser) -> str:
    """Waits until a service worker controls the page; its script's URL."""
    return browser.wait(lambda: browser.driver.execute_script("return navigator.serviceWorker.controller?.scriptURL || null;"),
                        timeout=60, message="a service worker controlling the page")


def set_offline(browser: Browser, offline: bool):
    """Cuts (or restores) the network of the page and of every service worker of this browser."""
    conditions = {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.driver.execute_cdp_cmd("Network.enable", {})
    browser.driver.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)
    sessions = getattr(browser, "worker_sessions", {})
    for target in browser.driver.execute_cdp_cmd("Target.getTargets", {})["targetInfos"]:
        if target["type"] == "service_worker" and target["targetId"] not in sessions:
            sessions[target["targetId"]] = browser.driver.execute_cdp_cmd(
                "Target.attachToTarget", {"targetId": target["targetId"], "flatten": False})["sessionId"]
    browser.worker_sessions = sessions
    # The worker's answers come back as events this driver does not read; none is needed.
    for number, session in enumerate(sessions.values()):
        for step, (method, params) in enumerate((("Network.enable", {}), ("Network.emulateNetworkConditions", conditions))):
            browser.driver.execute_cdp_cmd("Target.sendMessageToTarget", {
                "sessionId": session, "message": json.dumps({"id": 1000 + 10 * number + step, "method": method, "params": params})})
    browser.wait(lambda: browser.driver.execute_script("return navigator.onLine;") is (not offline),
                 message="the browser " + ("offline" if offline else "online"))


def feed_titles(browser: Browser) -> list:
    """The titles of the free feed's cards, once their details (pickup times) are in."""
    return browser.driver.execute_script(
        "const cards = [...document.querySelectorAll('li.result')];"
        "if (!cards.length || cards.some((c) => c.querySelector('.pickup').textContent.includes('…'))) return null;"
        "return cards.map((c) => c.querySelector('h3').textContent);")


def offline_note(browser: Browser) -> str:
    return browser.driver.find_element(By.ID, "offline").text


def kept_answers(browser: Browser) -> list:
    """The paths of the API answers the service worker keeps on this device."""
    return browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.open('commons-answers').then((c) => c.keys()).then((keys) => done(keys.map((k) => new URL(k.url).pathname)), (e) => done([String(e)]));")


class InstallableApp(JourneyTest):
    def journey(self, browser: Browser):
        browser.open("free")
        self.check_manifest(browser)
        self.assertIn("/sw.js", wait_controlled(browser))

        # What a person saw: a list of their own, their lists, and the free feed.
        browser.sign_up("Ines Installed")
        browser.open("lists")
        browser.fill("Name of the new list", "Picnic")
        browser.press("Make the list")
        browser.wait_for_heading("Picnic")
        browser.fill("Item", "Strawberries")
        browser.fill("How many", "2")
        browser.press("Add to the list")
        browser.wait_text("All changes saved")
        browser.wait(lambda: "Strawberries" in browser.text(), message="the item on the list")
        list_url = browser.driver.current_url
        browser.open("lists")
        browser.wait_text("1 item, 1 still to get")
        browser.open("free")
        seen = browser.wait(lambda: feed_titles(browser), timeout=30, message="the feed with its pickup times")
        # Scrolled through, so that every photo (each loads when it comes into view) was shown.
        for card in browser.find_all("li.result"):
            browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", card)
            browser.wait(lambda: browser.driver.execute_script(
                "const image = arguments[0].querySelector('img'); return !image || (image.complete && image.naturalWidth > 0);", card),
                timeout=30, message="a photo of the feed shown")
        browser.wait(lambda: browser.driver.execute_script(
            "return [...document.querySelectorAll('li.result img')].every((image) => image.complete && image.naturalWidth > 0);"),
            timeout=30, message="every photo of the feed shown")
        self.assertEqual(offline_note(browser), "")
        browser.check_clean()

        # The network goes: the app opens again, from this device, with what was seen.
        set_offline(browser, True)
        browser.driver.refresh()
        browser.wait_for_heading("Free things near you")
        browser.wait(lambda: offline_note(browser), message="the offline note")
        self.assertIn("You are offline", offline_note(browser))
        self.assertEqual(browser.wait(lambda: feed_titles(browser), message="the feed seen before"), seen)
        browser.check_fits()
        browser.check_accessibility()
        browser.check_page(screenshot="offline")
        browser.open("lists")
        browser.wait_text("Picnic")
        browser.wait_text("1 item, 1 still to get")
        browser.driver.get(list_url)
        browser.wait_for_heading("Picnic")
        browser.wait(lambda: "Strawberries" in browser.text(), message="the list's item, offline")
        browser.wait_text("You are offline")

        # Back online, the pages read Commons again; signing out forgets my lists here.
        set_offline(browser, False)
        browser.wait(lambda: offline_note(browser) == "", message="the offline note gone")
        self.assertTrue(any(path.startswith("/v1/lists") for path in kept_answers(browser)), kept_answers(browser))
        browser.open("account")
        browser.press("Sign out")
        browser.wait(lambda: "Sign in" in browser.driver.find_element(By.ID, "who").text, message="signed out")
        browser.wait(lambda: not any(path.startswith("/v1/lists") for path in kept_answers(browser)),
                     message=f"my lists no longer kept (kept: {kept_answers(browser)})")

    def check_manifest(self, browser: Browser):
        link = browser.driver.execute_script("return document.querySelector('link[rel=manifest]')?.getAttribute('href');")
        self.assertEqual(link, "/manifest.webmanifest")
        answer = fetch(browser, link)
        self.assertEqual((answer["status"], answer["type"], answer["cache"]), (200, "application/manifest+json", "no-cache"))
        manifest = json.loads(answer["text"])
        self.assertEqual(manifest["name"], "Commons")
        self.assertTrue(manifest["short_name"] and len(manifest["short_name"]) <= 12, manifest["short_name"])
        self.assertEqual((manifest["start_url"], manifest["scope"], manifest["display"]), ("/#/free", "/", "standalone"))
        for colour in ("theme_color", "background_color"):
            self.assertRegex(manifest[colour], r"^#[0-9a-f]{6}$")
        self.assertEqual(manifest["theme_color"],
                         browser.driver.execute_script("return document.querySelector('meta[name=theme-color]').content;"))
        sizes = {}
        for icon in manifest["icons"]:
            if icon["type"] != "image/png":
                continue
            width, height = (int(n) for n in re.fullmatch(r"(\d+)x(\d+)", icon["sizes"]).groups())
            self.assertEqual(image_size(browser, icon["src"]), [width, height], icon)
            self.assertEqual(fetch(browser, icon["src"])["type"], "image/png", icon)
            sizes.setdefault(icon.get("purpose", "any"), set()).add(width)
        self.assertTrue({192, 512} <= sizes.get("any", set()), sizes)
        self.assertIn(512, sizes.get("maskable", set()), sizes)

        # The worker's script: JavaScript, never kept stale, under the page's policy.
        worker = fetch(browser, "/sw.js")
        self.assertEqual((worker["status"], worker["cache"]), (200, "no-cache"))
        self.assertTrue(worker["type"].startswith("text/javascript"), worker["type"])
        status, _, headers = api("GET", "/")
        policy = headers.get("Content-Security-Policy", "")
        self.assertEqual(status, 200)
        self.assertNotIn("unsafe", policy)


class UpdateOffer(JourneyTest):
    def journey(self, browser: Browser):
        browser.open("free")
        wait_controlled(browser)
        self.assertEqual(browser.find_all("#update button"), [])
        # A new version served: a worker script the browser has not run, installed beside the
        # one in charge (here the same file under another address, which browsers also take
        # for a new version), while the page stays as it is.
        browser.driver.execute_script("window.sameDocument = true;")
        browser.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "navigator.serviceWorker.register('/sw.js?version=next', {scope: '/'}).then(() => done(true), (e) => done(String(e)));")
        offer = browser.wait(lambda: browser.driver.find_element(By.ID, "update").text, timeout=60, message="the update offer")
        self.assertIn("A new version of Commons is ready.", offer)
        browser.check_page(screenshot="update")
        browser.press("Reload")
        browser.wait(lambda: not browser.driver.execute_script("return window.sameDocument === true;"), timeout=60,
                     message="the page reloaded")
        browser.wait_for_heading("Free things near you")
        self.assertTrue(wait_controlled(browser).endswith("/sw.js?version=next"))
