"""Journey 4, shopping lists: products found with price, store and calories; lists made,
renamed and deleted; products and a typed item added with quantities, with the totals Commons
computes. Then two people in two browsers on one shared list: the list appears on the other's
open lists page as it is shared, each sees the other's additions live, and two "+1"s on one item at the same moment add up. Then one of them goes offline:
their edits wait on the device, say so, and reach the other person when the connection returns.
"""
import re

from selenium.webdriver.common.by import By

from harness import Browser, JourneyTest, settle


def list_id(browser: Browser) -> str:
    match = re.search(r"#/list/([0-9a-fA-F-]{36})", browser.driver.current_url)
    assert match, browser.driver.current_url
    return match.group(1)


def wait_heading(browser: Browser, text: str):
    """Waits for the page heading `text`, read in one script (the harness's own wait can catch a
    heading just as the router replaces the page, and fail on a stale element)."""
    browser.wait(lambda: text in (browser.driver.execute_script(
        "const h = document.querySelector('main h1'); return h ? h.textContent : '';") or ""), message=f"the heading {text!r}")


def make_list(browser: Browser, name: str) -> str:
    """Makes a list on #/lists; its id, once its page shows."""
    browser.open("lists")
    wait_heading(browser, "Shopping lists")
    browser.fill("Name of the new list", name)
    browser.press("Make the list")
    wait_heading(browser, name)
    browser.wait_text("All changes saved")
    return list_id(browser)


def add_own_item(browser: Browser, text: str, quantity: int = 1):
    browser.fill("Item", text)
    browser.fill("How many", str(quantity))
    browser.press("Add to the list")


def item_row(browser: Browser, name: str):
    """The row of the item called `name`, or None (found in one script: the list redraws as it changes)."""
    return browser.driver.execute_script(
        "return [...document.querySelectorAll('li.list-item')].find(row => row.querySelector('.item-name').textContent === arguments[0]) || null;", name)


def quantity_of(browser: Browser, name: str):
    return browser.driver.execute_script(
        "const row = [...document.querySelectorAll('li.list-item')].find(row => row.querySelector('.item-name').textContent === arguments[0]);"
        "return row ? Number(row.querySelector('.quantity').textContent) : null;", name)


def press_in_row(browser: Browser, name: str, label: str):
    """Clicks the button labelled `label` in the row of item `name`."""
    browser.wait(lambda: browser.driver.execute_script(
        "const row = [...document.querySelectorAll('li.list-item')].find(row => row.querySelector('.item-name').textContent === arguments[0]);"
        "const button = row && row.querySelector(`button[aria-label=\"${arguments[1]}\"]`);"
        "if (!button || button.disabled) return false; button.click(); return true;", name, label), message=f"{label} in the row of {name}")


def wait_quantity(browser: Browser, name: str, quantity: int, timeout: float = 15):
    browser.wait(lambda: quantity_of(browser, name) == quantity, timeout,
                 message=f"{name} × {quantity} (shown: {quantity_of(browser, name)})")


def list_from_page(browser: Browser, identifier: str) -> dict:
    """The list as the API answers the signed-in browser."""
    return browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/v1/lists/' + arguments[0], {credentials: 'same-origin'}).then(r => r.json()).then(done, e => done({error: String(e)}));",
        identifier)


def search_and_add(browser: Browser, words: str, quantity: int) -> str:
    """Searches the catalogue and adds the first product found; its name."""
    browser.fill("Search products", words)
    browser.press("Search")
    # The results of this search (not the last one's), with the nearest store filled in.
    browser.wait(lambda: browser.driver.execute_script(
        "const first = document.querySelector('li.result.product');"
        "return first && first.querySelector('h3').textContent.toLowerCase().includes(arguments[0]) && /€\\s?\\d+[.,]\\d\\d at \\S/.test(first.textContent);",
        words.lower()), message=f"a product for {words} with its nearest store")
    first = browser.find("li.result.product")
    text = first.text
    assert "kcal per" in text, text
    assert re.search(r"From €\s?\d+[.,]\d\d", text), text
    name = first.find_element(By.CSS_SELECTOR, "h3").text
    field = first.find_element(By.CSS_SELECTOR, "input[name=quantity]")
    field.clear()
    field.send_keys(str(quantity))
    first.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    return name


def go_offline(browser: Browser, offline: bool):
    browser.driver.execute_cdp_cmd("Network.enable", {})
    browser.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


class ShoppingLists(JourneyTest):
    def journey(self, browser: Browser):
        browser.sign_up("Lena Lists")
        make_list(browser, "Leftovers to use up")
        identifier = make_list(browser, "Weekend")

        browser.fill("List name", "Weekend groceries")
        browser.press("Rename")
        wait_heading(browser, "Weekend groceries")
        browser.wait_text("All changes saved")

        apples = search_and_add(browser, "apples", 2)
        wait_quantity(browser, apples, 2)
        coffee = search_and_add(browser, "coffee", 1)
        wait_quantity(browser, coffee, 1)
        add_own_item(browser, "Birthday candles", 3)
        wait_quantity(browser, "Birthday candles", 3)
        browser.wait_text("All changes saved")
        browser.wait(lambda: len(browser.find_all("li.list-item")) == 3, message="three items")

        # The totals are Commons' own, and the list as Commons keeps it is the one shown.
        stored = list_from_page(browser, identifier)
        self.assertEqual(stored["name"], "Weekend groceries")
        self.assertEqual(sorted(item["quantity"] for item in stored["items"]), [1, 2, 3])
        totals = browser.find("section.totals").text
        self.assertIn(f"{stored['totals']['calories']:,} kcal", totals)
        self.assertEqual(len(stored["totals"]["prices"]), 1)
        euros = stored["totals"]["prices"][0]["amountMinor"] / 100
        self.assertIn(f"€{euros:,.2f}", totals.replace("\u00a0", ""))
        self.assertIn("1 item has no price", totals)
        browser.check_page(screenshot="list")

        # The other list goes; this one stays.
        browser.open("lists")
        browser.wait_text("Weekend groceries")
        browser.wait_text("Leftovers to use up")
        # Asked first; "Keep it" keeps it.
        browser.press("Delete")
        browser.press("Keep it")
        entry = next(node for node in browser.find_all("li.list-entry") if "Leftovers to use up" in node.text)
        entry.find_element(By.CSS_SELECTOR, "button[aria-label='Delete Leftovers to use up']").click()
        browser.press("Yes, delete it")
        browser.wait(lambda: "Leftovers to use up" not in browser.text(), message="the deleted list gone")
        self.assertIn("Weekend groceries", browser.text())
        self.assertIn("3 items, 3 still to get", browser.text())
        browser.check_page(screenshot="lists")


class SharedListLive(JourneyTest):
    def journey(self, browser: Browser):
        other = Browser(browser.size)
        try:
            self.shared(browser, other)
            other.check_clean()
        finally:
            other.close()

    def shared(self, owner: Browser, other: Browser):
        owner.sign_up("Olga Owner")
        other.sign_up("Sam Shopper")
        identifier = make_list(owner, "Shared shop")
        add_own_item(owner, "Oat milk", 1)
        wait_quantity(owner, "Oat milk", 1)

        # Sam passes on his sharing link; Olga opens it and picks the list.
        other.open("lists")
        other.wait_text("No lists yet")
        other.driver.execute_script("window.notReloaded = true;")  # gone if the page is loaded again
        link = other.find("#my-sharing-link").get_attribute("value")
        self.assertIn("#/lists/with/", link)
        owner.driver.get(link)
        wait_heading(owner, "Share a list with Sam Shopper")
        owner.fill("Which list?", "Shared shop")
        owner.press("Share it")
        wait_heading(owner, "Shared shop")
        owner.wait_text("Sam Shopper")

        # Sam's lists page, still open where the link was, shows the list without a reload.
        self.assertEqual(other.driver.execute_script("return location.hash;"), "#/lists")
        other.wait(lambda: "Shared shop" in other.text() and "Shared with you" in other.text(), 60, message="the shared list, live")
        self.assertTrue(other.driver.execute_script("return window.notReloaded === true;"), "the page was not reloaded")
        other.press("Shared shop")
        wait_heading(other, "Shared shop")
        other.wait_text("Olga Owner keeps this list.")
        wait_quantity(other, "Oat milk", 1)
        settle(1)  # both live streams open

        # Each sees the other's additions without reloading.
        add_own_item(owner, "Rye bread", 2)
        wait_quantity(other, "Rye bread", 2)
        add_own_item(other, "Hagelslag", 1)
        wait_quantity(owner, "Hagelslag", 1)
        owner.wait_text("added by Sam Shopper")

        # Both press "+1" on the oat milk at the same moment: both count.
        press_in_row(owner, "Oat milk", "One more Oat milk")
        press_in_row(other, "Oat milk", "One more Oat milk")
        wait_quantity(owner, "Oat milk", 3)
        wait_quantity(other, "Oat milk", 3)
        owner.wait_text("All changes saved")
        other.wait_text("All changes saved")
        settle(1)
        self.assertEqual(quantity_of(owner, "Oat milk"), 3)
        self.assertEqual(quantity_of(other, "Oat milk"), 3)
        stored = list_from_page(other, identifier)
        self.assertEqual({item["text"]: item["quantity"] for item in stored["items"]}, {"Oat milk": 3, "Rye bread": 2, "Hagelslag": 1})


class OfflineEdits(JourneyTest):
    def journey(self, browser: Browser):
        other = Browser(browser.size)
        try:
            self.offline(browser, other)
            other.check_clean()
        finally:
            other.close()

    def offline(self, owner: Browser, other: Browser):
        owner.sign_up("Omar Owner")
        other.sign_up("Fien Offline")
        other.open("lists")
        link = other.find("#my-sharing-link").get_attribute("value")
        identifier = make_list(owner, "Camping trip")
        add_own_item(owner, "Matches", 1)
        wait_quantity(owner, "Matches", 1)
        # Sharing by pasting the link into the list's own form.
        owner.wait_text("Nobody else yet.")
        owner.fill("Their sharing link or code", link)
        owner.press("Share")
        owner.wait_text("Fien Offline")
        other.open(f"list/{identifier}")
        wait_heading(other, "Camping trip")
        wait_quantity(other, "Matches", 1)
        settle(1)

        go_offline(other, True)
        other.wait_text("You are offline")
        add_own_item(other, "Tent pegs", 12)
        wait_quantity(other, "Tent pegs", 12)
        press_in_row(other, "Matches", "One more Matches")
        wait_quantity(other, "Matches", 2)
        other.wait_text("2 edits are waiting to be sent")
        self.assertEqual(len(other.find_all("li.list-item .badge.warn")), 2)
        other.check_accessibility()
        # They stay on the device: Omar sees nothing yet.
        settle(1.5)
        self.assertIsNone(item_row(owner, "Tent pegs"))
        self.assertEqual(quantity_of(owner, "Matches"), 1)

        go_offline(other, False)
        other.wait_text("All changes saved")
        wait_quantity(owner, "Tent pegs", 12)
        wait_quantity(owner, "Matches", 2)
        wait_quantity(other, "Matches", 2)
        self.assertEqual(len(other.find_all("li.list-item .badge.warn")), 0)
        stored = list_from_page(owner, identifier)
        self.assertEqual({item["text"]: item["quantity"] for item in stored["items"]}, {"Matches": 2, "Tent pegs": 12})
