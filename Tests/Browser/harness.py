"""What every browser test of the web app shares: the running stack, a real headless
Chromium at phone or laptop size, and the checks every page must pass.

The stack is the one scripts/check-web.sh starts (`commons up` with its demo data) and names
in COMMONS_WEB_URL; the tests add their own accounts to it. A test fails on any console
error or failed request its page makes (unless the test names the status it expects, as a
test of an error message does), and `check_page` runs axe-core on the page and fails on any
serious or critical finding.

Needs Debian's chromium, chromium-driver and python3-selenium (run with /usr/bin/python3),
and axe-core's axe.min.js (from the PyPI package axe-selenium-python; AXE_SCRIPT names it).
"""
import json
import re
import os
import time
import unittest
import urllib.request
import uuid

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BASE = os.environ.get("COMMONS_WEB_URL", "http://127.0.0.1:8080").rstrip("/")
SCREENSHOTS = os.environ.get("COMMONS_WEB_SCREENSHOTS", os.path.join(ROOT, "docs", "screenshots"))
SIZES = {"phone": (390, 844), "laptop": (1280, 860)}
DEMO_PASSWORD = "share-and-care-42"
DEMO_PEOPLE = {"ada": "ada@commons.local", "grace": "grace@commons.local", "alan": "alan@commons.local"}
DEMO_ADMIN = "admin@commons.local"


def new_email(prefix: str = "person") -> str:
    """An address no other test uses."""
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


def _decoded(raw: bytes, content_type: str):
    return json.loads(raw) if raw and "json" in (content_type or "") else (raw.decode(errors="replace") if raw else None)


def api(method: str, path: str, body=None, token: str = None, headers: dict = None):
    """A request to the stack from outside the browser (to set a scene up): (status, JSON or text or None, headers)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, _decoded(response.read(), response.headers.get("Content-Type")), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, _decoded(error.read(), error.headers.get("Content-Type")), dict(error.headers)


def demo_photo_links(count: int) -> list:
    """Links to `count` different photos of free listings, newest first, paging through the
    feed: other journeys post free items without photos (one posts fifty-two), so the first
    page alone may have none."""
    links, cursor = [], None
    for _ in range(40):
        status, page, _ = api("GET", "/v1/listings?free=true&limit=100" + (f"&cursor={cursor}" if cursor else ""))
        assert status == 200, (status, page)
        for listing in page["items"]:
            for image in listing["images"]:
                if image["original"] not in links:
                    links.append(image["original"])
        cursor = page.get("nextCursor")
        if len(links) >= count or not cursor:
            break
    assert len(links) >= count, f"the free listings have {len(links)} photos"
    return links[:count]


def sign_up_by_api(display_name: str = "Test Person"):
    """A new account made through the API: (email, password, access token)."""
    email, password = new_email(), "a long test passphrase"
    status, body, _ = api("POST", "/v1/accounts", {"email": email, "password": password, "displayName": display_name})
    assert status == 201, (status, body)
    return email, password, body["accessToken"]


class Browser:
    """One headless Chromium window at `size` ('phone' or 'laptop'), with its own cookies."""

    def __init__(self, size: str = "phone"):
        self.size = size
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        width, height = SIZES[size]
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         f"--window-size={width},{height}", "--lang=en-GB", "--hide-scrollbars"):
            options.add_argument(argument)
        if size == "phone":
            options.add_experimental_option("mobileEmulation", {
                "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2, "touch": True},
                "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36"})
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.set_page_load_timeout(30)
        self.expected_statuses = set()
        self.problems = []
        self._network = []  # every DevTools network event so far
        self._network_checked = 0  # how many of them check_clean has looked at

    # Navigation and finding things.
    def open(self, route: str = ""):
        """Opens `#/<route>` of the app (afresh, also when it is the page already shown)."""
        target = f"{BASE}/#/{route}"
        if self.driver.current_url == target:
            self.driver.refresh()
        else:
            self.driver.get(target)
        self.wait_for_heading()

    def wait(self, condition, timeout: float = 15, message: str = ""):
        def attempt():
            try:
                return condition()
            except StaleElementReferenceException:
                return None  # the page redrew what the condition was looking at: look again
        try:
            return WebDriverWait(self.driver, timeout).until(lambda d: attempt())
        except TimeoutException:
            raise AssertionError(f"{self.size}: timed out waiting: {message} ({self.where()})") from None

    def where(self) -> str:
        """The page as it is, for a failure's message: its address, heading and first words."""
        try:
            headings = self.driver.find_elements(By.CSS_SELECTOR, "main h1")
            main = self.driver.find_elements(By.TAG_NAME, "main")
            words = " ".join(main[0].text.split())[:200] if main else ""
            heading = headings[0].text if headings else "none"
            return f"at {self.driver.current_url}, heading {heading!r}, showing {words!r}"
        except Exception as error:  # the page itself is what failed: say so rather than hide the timeout
            return f"the page could not be read: {error}"

    def wait_for_heading(self, text: str = None):
        def found():
            headings = self.driver.find_elements(By.CSS_SELECTOR, "main h1")
            return headings and (text is None or text in headings[0].text)
        self.wait(found, message=f"a page heading {text or ''}")

    def find(self, css: str):
        return self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, css)[0] if self.driver.find_elements(By.CSS_SELECTOR, css) else None,
                         message=css)

    def find_all(self, css: str):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def text(self) -> str:
        return self.driver.find_element(By.TAG_NAME, "main").text

    def wait_text(self, text: str, timeout: float = 15):
        self.wait(lambda: text in self.text(), timeout, message=f"the text {text!r}")

    def field(self, label: str):
        """The control labelled `label` (its <label>'s text)."""
        def control():
            for node in self.driver.find_elements(By.TAG_NAME, "label"):
                if node.text.strip() == label and node.get_attribute("for"):
                    found = self.driver.find_elements(By.ID, node.get_attribute("for"))
                    if found and found[0].is_displayed():
                        return found[0]
            return None
        return self.wait(control, message=f"a field labelled {label!r}")

    def fill(self, label: str, value: str):
        control = self.field(label)
        if control.tag_name == "select":
            from selenium.webdriver.support.ui import Select
            Select(control).select_by_visible_text(value)
        else:
            control.clear()
            control.send_keys(value)
        return control

    def press(self, name: str):
        """Clicks the button or link whose text is `name`."""
        def target():
            for node in self.driver.find_elements(By.CSS_SELECTOR, "button, a, [role=button]"):
                if node.text.strip() == name and node.is_displayed() and node.is_enabled():
                    return node
            return None
        node = self.wait(target, message=f"a button or link {name!r}")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", node)
        node.click()

    # The journeys' common steps.
    def sign_in(self, email: str, password: str = DEMO_PASSWORD):
        self.open("sign-in")
        form = self.find("form[aria-labelledby=sign-in-title]")
        form.find_element(By.CSS_SELECTOR, "input[name=email]").send_keys(email)
        form.find_element(By.CSS_SELECTOR, "input[name=password]").send_keys(password)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.wait_signed_in("signed in")

    def sign_up(self, display_name: str = "Test Person", going_to: str = None):
        """A new account made in the sign-up form (of the sign-in page that goes on to
        `#/<going_to>`, when given): its (email, password)."""
        email, password = new_email(), "a long test passphrase"
        self.open(f"sign-in/{going_to}" if going_to else "sign-in")
        form = self.find("form[aria-labelledby=sign-up-title]")
        form.find_element(By.CSS_SELECTOR, "input[name=displayName]").send_keys(display_name)
        form.find_element(By.CSS_SELECTOR, "input[name=email]").send_keys(email)
        form.find_element(By.CSS_SELECTOR, "input[name=password]").send_keys(password)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.wait_signed_in("signed up")
        return email, password

    def wait_signed_in(self, message: str):
        """Waits until the header says "Signed in" and the sign-in page has moved on to the
        page it was going to. The header changes first, while signing in still reads
        /v1/me: a test that went elsewhere in that moment was taken back to that page."""
        def done():
            if "Signed in" not in self.driver.find_element(By.ID, "who").text:
                return False
            return "#/sign-in" not in self.driver.current_url and self.driver.find_elements(By.CSS_SELECTOR, "main h1")
        self.wait(done, message=message)

    # What every page must pass.
    def expect_status(self, *statuses: int):
        """Statuses the test provokes on purpose (an error it checks is shown), not failures."""
        self.expected_statuses.update(statuses)

    # A listing that a nearby search still shows for a moment after its owner's account was
    # deleted (by a journey running beside this one) answers 404 when a list page fetches its
    # details; the page keeps the search's card (listing-people.js, eachListing). That one
    # request, and only with 404, is not a failure.
    ERASED_LISTING = re.compile(r"https?://[^/\s]+/v1/listings/[0-9A-Fa-f-]{36}(?=\s|$)")

    def check_clean(self):
        """Fails on any console error, and on any request that failed or answered an unexpected 4xx/5xx."""
        problems = []
        for entry in self.driver.get_log("browser"):
            if entry["level"] != "SEVERE":
                continue
            message = entry["message"]
            if "Failed to load resource" in message and any(f"status of {s} " in message for s in self.expected_statuses):
                continue
            if "status of 404 " in message and self.ERASED_LISTING.match(message):
                continue
            problems.append(f"console: {message}")
        events = self.network_events()[self._network_checked:]
        self._network_checked = len(self._network)
        for event in events:
            if event["method"] == "Network.loadingFailed" and not event["params"].get("canceled"):
                problems.append(f"request failed: {event['params'].get('errorText')} ({event['params'].get('type')})")
            elif event["method"] == "Network.responseReceived":
                response = event["params"]["response"]
                if response["status"] == 404 and self.ERASED_LISTING.fullmatch(response["url"]):
                    continue
                if response["status"] >= 400 and response["status"] not in self.expected_statuses:
                    problems.append(f"{response['status']} from {response['url']}")
        if problems:
            raise AssertionError(f"{self.size}: " + "; ".join(problems[:8]))

    def network_events(self) -> list:
        """Every DevTools network event of this window so far (Chromium hands each one over
        once, so they are kept here for check_clean and requested alike)."""
        self._network += [json.loads(entry["message"])["message"] for entry in self.driver.get_log("performance")]
        return self._network

    def requested(self, since: int = 0) -> list:
        """The URLs this window asked for, from network event `since` on (a len(network_events()))."""
        return [event["params"]["request"]["url"] for event in self.network_events()[since:]
                if event["method"] == "Network.requestWillBeSent"]

    def check_accessibility(self):
        """axe-core on the page as it is: no serious or critical finding."""
        script = os.environ.get("AXE_SCRIPT")
        if not script:
            raise AssertionError("AXE_SCRIPT does not name axe.min.js (scripts/check-web.sh sets it)")
        with open(script) as source:
            self.driver.execute_script(source.read())
        result = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
            " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))), e => done([{id: 'axe', impact: 'critical', help: String(e), nodes: []}]));")
        serious = [v for v in result if v["impact"] in ("serious", "critical")]
        if serious:
            raise AssertionError(f"{self.size}: accessibility: " + "; ".join(f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in serious))

    def check_fits(self):
        """Nothing scrolls sideways."""
        overflow = self.driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if overflow > 1:
            raise AssertionError(f"{self.size}: the page scrolls sideways by {overflow} px")

    def check_page(self, screenshot: str = None, scroll_to: str = None):
        """Every check of a page that has settled; at phone size, a screenshot for docs/web-app.md,
        of the page's top (or with the element `scroll_to` at the top)."""
        self.check_fits()
        self.check_accessibility()
        self.check_clean()
        if screenshot and self.size == "phone":
            os.makedirs(SCREENSHOTS, exist_ok=True)
            # axe scrolls while it checks contrast: the picture is of the page's top.
            if scroll_to:
                self.driver.execute_script("document.activeElement.blur(); arguments[0].scrollIntoView({block: 'start'})", self.find(scroll_to))
            else:
                self.driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
            settle(0.3)
            self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"web-{screenshot}.png"))

    def close(self):
        self.driver.quit()


class JourneyTest(unittest.TestCase):
    """A journey run at each size: subclasses write `journey(self, browser)` and get a test
    per size (this class itself holds none, so it is not run on its own)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.test_phone = lambda self: self.run_at("phone")
        cls.test_laptop = lambda self: self.run_at("laptop")

    def journey(self, browser: "Browser"):
        raise NotImplementedError

    def run_at(self, size: str):
        browser = Browser(size)
        try:
            self.journey(browser)
            browser.check_clean()
        except BaseException:
            os.makedirs(os.path.join(ROOT, ".build", "web-failures"), exist_ok=True)
            browser.driver.save_screenshot(os.path.join(ROOT, ".build", "web-failures", f"{type(self).__name__}-{size}.png"))
            raise
        finally:
            browser.close()


def settle(seconds: float = 0.3):
    """A moment for the page to finish drawing after the awaited element appeared."""
    time.sleep(seconds)
