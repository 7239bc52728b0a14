"""Journey 2, the used-item market: priced items with their prices, keyword search, sorting by
price and by name both ways, "new since you looked" for an item another person posts while
the market is open, and comments on an item (added at once, an empty one refused in words)."""
import os
import re
import time
import uuid

from selenium.webdriver.common.by import By

from harness import ROOT, Browser, JourneyTest, api, settle, sign_up_by_api


def post_priced(token: str, title: str, amount_minor: int, description: str) -> str:
    """A priced listing near the Dam, posted from outside the browser; its id once the feed shows it."""
    status, body, headers = api("POST", "/v1/listings", {
        "title": title, "description": description, "category": "Household", "condition": "good",
        "price": {"amountMinor": amount_minor, "currency": "EUR"},
        "pickupLocation": {"lat": 52.3731, "lon": 4.8926}, "pickupTimes": {"note": "evenings"},
    }, token)
    assert status == 201, (status, body)
    position = headers.get("Commons-Position")
    deadline = time.time() + 15
    while time.time() < deadline:
        status, page, _ = api("GET", f"/v1/listings?minPrice=1&sort=recent&limit=5", headers={"Commons-Min-Position": position} if position else None)
        if status == 200 and any(item["id"] == body["id"] for item in page["items"]):
            return body["id"]
        time.sleep(0.3)
    raise AssertionError(f"{title} never reached the feed")


def sign_up_into_market(browser: Browser, display_name: str):
    """Signs up in the form that sends the person on to the market (not via the free page)."""
    browser.sign_up(display_name, going_to="market")
    browser.wait_for_heading("Market")


def euros(text: str) -> float:
    """The amount of a shown price such as "€1,234.50"."""
    return float(re.sub(r"[^0-9.]", "", text.replace(",", "")))


class UsedItemMarket(JourneyTest):
    # Read in one script, so that a list redrawn meanwhile never leaves a stale element.
    def shown(self, browser: Browser, css: str):
        return browser.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map(n => n.textContent.trim())", f"ul.market-results .market-item {css}")

    def shown_prices(self, browser: Browser):
        return [euros(text) for text in self.shown(browser, ".price")]

    def shown_titles(self, browser: Browser):
        return self.shown(browser, "h3")

    def wait_for(self, browser: Browser, what, expected, message):
        browser.wait(lambda: what(browser) == expected, message=f"{message}: wanted {expected}, saw {what(browser)}")

    def journey(self, browser: Browser):
        posted = []  # (listing id, its owner's token): withdrawn at the end, so the next run's market is the demo's
        try:
            self.shop(browser, posted)
        finally:
            for listing, token in posted:
                api("DELETE", f"/v1/listings/{listing}", None, token)

    def shop(self, browser: Browser, posted: list):
        # The demo city's market, as a newcomer first sees it.
        sign_up_into_market(browser, "Maya Market")
        browser.wait(lambda: self.shown_prices(browser), message="priced items with prices")
        prices = self.shown(browser, ".price")
        self.assertTrue(all("€" in price or "EUR" in price for price in prices), prices)
        browser.check_page(screenshot="market")

        tag = f"quokka{uuid.uuid4().hex[:8]}"
        _, _, seller = sign_up_by_api("Sam Seller")
        for title, price in [(f"Mirror {tag}", 1500), (f"Anchor {tag}", 4200), (f"Zither {tag}", 250)]:
            posted.append((post_priced(seller, title, price, f"A well kept {tag}, from a student moving out"), seller))

        # A keyword finds the three; then price and name, each way.
        browser.fill("Search the market", tag)
        browser.press("Search")
        browser.wait(lambda: len(self.shown_titles(browser)) == 3, message="the three search results")
        browser.wait_text(f"3 items matching “{tag}”")
        browser.fill("Sort by", "Price: low to high")
        self.wait_for(browser, self.shown_prices, [2.5, 15.0, 42.0], "cheapest first")
        browser.fill("Sort by", "Price: high to low")
        self.wait_for(browser, self.shown_prices, [42.0, 15.0, 2.5], "dearest first")
        browser.fill("Sort by", "Name: A to Z")
        self.wait_for(browser, self.shown_titles, [f"Anchor {tag}", f"Mirror {tag}", f"Zither {tag}"], "A to Z")
        browser.fill("Sort by", "Name: Z to A")
        self.wait_for(browser, self.shown_titles, [f"Zither {tag}", f"Mirror {tag}", f"Anchor {tag}"], "Z to A")

        # The whole market, dearest first: a picture of sorting.
        browser.fill("Search the market", "")
        browser.press("Search")
        browser.fill("Sort by", "Price: high to low")
        browser.wait(lambda: re.search(r"\d+\+? items, dearest first", browser.text()), message="the whole market, dearest first")
        prices = self.shown_prices(browser)
        self.assertEqual(prices, sorted(prices, reverse=True))
        browser.check_page(screenshot="market-sorted")

        # Someone else posts while the market is open: it is offered as new, and shown.
        _, _, other = sign_up_by_api("Noor Neighbour")
        fresh_title = f"Velvet armchair {tag}"
        fresh = post_priced(other, fresh_title, 3500, f"Deep green velvet, {tag}")
        posted.append((fresh, other))
        browser.press("Check for new items")
        browser.wait(lambda: re.search(r"\d+ new since you looked", browser.text()), message="new since you looked")
        browser.press("Show them")
        browser.wait(lambda: fresh_title in browser.find("section.market-shelf").text, message="the new item shown")
        self.assertFalse([node for node in browser.find_all(".market-news") if node.is_displayed()])
        browser.check_page()

        # Its page: the seller's question is there; the person's own comment appears at once.
        api("POST", f"/v1/listings/{fresh}/comments", {"text": "Ask me anything about it."}, other)
        item_page = os.path.exists(os.path.join(ROOT, "deploy", "web", "js", "pages", "item.js"))
        if item_page:
            browser.press(fresh_title)
            browser.wait(lambda: browser.driver.execute_script("return document.querySelector('main h1')?.textContent") == fresh_title,
                         message="the item's page")
        else:
            # The item page is not written yet: the comments module on its own, in the market's view.
            browser.driver.execute_script(
                "const s = document.createElement('section'); s.id = 'comments-under-test'; document.getElementById('view').append(s);"
                "import('/js/comments.js').then(m => m.renderComments(s, arguments[0]));", fresh)
        browser.wait(lambda: "Ask me anything about it." in browser.text(), message="the seller's comment")
        browser.wait_text("Noor Neighbour")

        browser.press("Post comment")
        error = browser.find(".comments-section .field-error")
        self.assertEqual(error.text, "Write something before posting your comment.")
        self.assertEqual(browser.field("Your comment").get_attribute("aria-invalid"), "true")

        browser.fill("Your comment", "Is it still there on Saturday?")
        browser.press("Post comment")
        browser.wait(lambda: any("Is it still there on Saturday?" in li.text and "You" in li.text
                                 for li in browser.find_all(".comments li")), message="my comment at once")
        self.assertFalse(browser.find_all(".comments-section .field-error"))
        settle()
        browser.check_page()

        # The person deletes their own comment; the seller's stays.
        browser.press("Delete")
        browser.wait(lambda: "Is it still there on Saturday?" not in browser.text(), message="my comment gone")
        self.assertIn("Ask me anything about it.", browser.text())
        if item_page:
            browser.driver.refresh()
            browser.wait(lambda: "Ask me anything about it." in browser.text(), message="the item page again")
            self.assertNotIn("Is it still there on Saturday?", browser.text())
