"""Journey 8, alerts reach people: a person saves the free feed's search ("Tell me about new
ones"); someone else posts a matching item; the count on the person's Alerts tab rises while
the app is open, without a reload; the alerts page lists the match (and another as it
arrives), empties the count, keeps what was read under "Earlier", and shows the saved search,
which can be deleted.
"""
import uuid

from selenium.webdriver.common.by import By

from harness import Browser, JourneyTest, api, sign_up_by_api


def tab_count(browser: Browser) -> int:
    """The number on the Alerts tab (0 when it shows none)."""
    text = browser.driver.execute_script("return document.querySelector('.tabs a[data-section=alerts] .tab-count').textContent;")
    return int(text.rstrip("+")) if text else 0


def post_book(title: str):
    """A free book posted near the demo centre by a new account, through the API."""
    _, _, token = sign_up_by_api("Gus Giver")
    status, listing, _ = api("POST", "/v1/listings", {
        "title": title, "description": "A book for whoever wants it.", "category": "Books", "condition": "good",
        "pickupTimes": {"note": "Evenings after six"}, "pickupLocation": {"lat": 52.3700, "lon": 4.8890}}, token)
    assert status == 201, (status, listing)
    return listing


class AlertsReachPeople(JourneyTest):
    def journey(self, browser: Browser):
        browser.sign_up("Alma Alert")
        browser.open("free")
        browser.fill("Category", "Books")
        browser.wait(lambda: "free books items" in browser.text(), message="the feed of books")
        browser.press("Tell me about new ones")
        browser.wait_text("will show under Alerts")
        self.assertEqual(tab_count(browser), 0)

        # Someone else posts a book nearby: the count rises on this open page.
        browser.driver.execute_script("window.sameDocument = true;")
        title = f"Atlas of the canals {uuid.uuid4().hex[:6]}"
        post_book(title)
        browser.wait(lambda: tab_count(browser) >= 1, timeout=60, message="a count on the Alerts tab")
        self.assertTrue(browser.driver.execute_script("return window.sameDocument === true;"), "the page was reloaded")
        self.assertIn("new", browser.driver.find_element(By.CSS_SELECTOR, ".tabs a[data-section=alerts]").get_attribute("aria-label"))

        # The alerts page lists it, and the count goes back to none.
        browser.driver.find_element(By.CSS_SELECTOR, ".tabs a[data-section=alerts]").click()
        browser.wait_for_heading("Alerts")
        browser.wait_text(title)
        browser.wait(lambda: tab_count(browser) == 0, message="the count emptied")
        browser.wait_text("Books near Amsterdam Centrum")
        browser.check_page(screenshot="alerts")

        # A second one arrives while the page is open: it is listed at once.
        second = f"Dutch for beginners {uuid.uuid4().hex[:6]}"
        post_book(second)
        browser.wait_text(second, timeout=60)
        browser.wait(lambda: tab_count(browser) == 0, message="no count while reading the alerts")

        # Opened again, the page has nothing new; what was read is under "Earlier".
        browser.open("alerts")
        browser.wait_text("Nothing new yet.")
        earlier = browser.find("ul[aria-labelledby=earlier-matches-title]")
        browser.wait(lambda: title in earlier.text and second in earlier.text, message="both matches under Earlier")

        # The saved search can go.
        browser.driver.find_element(By.CSS_SELECTOR, "button[aria-label^='Delete the saved search']").click()
        browser.wait_text("No saved searches yet.")
