"""Journey 1, free things near me: a newcomer finds free items around the demo centre (as a
list and on the map, by category and distance in km and miles), opens one, asks for it and
writes to the giver; a giver posts an item with two photos from the camera input, sees it in
"my items" at once, promises it to a requester and marks it given, and renews and withdraws
another; the exact pickup point shows only to the person the item is promised to; and a
giver with more requests than a page shows the rest and promises the item to the last; and a
giver with more items than a page shows the rest, and a change keeps them all in view."""
import os
import re
import tempfile
import time
import urllib.parse
import urllib.request
import uuid

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains

from harness import BASE, Browser, JourneyTest, api, demo_photo_links, settle, sign_up_by_api

CENTRE = {"lat": 52.3731, "lon": 4.8926}


def nearby(**parameters) -> list:
    """What geo-search answers around the demo centre for the feed's filters."""
    query = {**CENTRE, "free": "true", "status": "available", "limit": 20, **parameters}
    status, body, _ = api("GET", "/v1/nearby/listings?" + urllib.parse.urlencode(query))
    assert status == 200, (status, body)
    return body["items"]


def sign_in_by_api(email: str, password: str) -> str:
    status, body, _ = api("POST", "/v1/sessions", {"email": email, "password": password})
    assert status in (200, 201), (status, body)
    return body["accessToken"]


def post_by_api(token: str, title: str, **fields) -> dict:
    body = {"title": title, "description": "Posted by a test.", "category": "Household", "condition": "good",
            "pickupTimes": {"note": "Evenings after six"}, "pickupLocation": {"lat": 52.3700, "lon": 4.8890}, **fields}
    status, listing, _ = api("POST", "/v1/listings", body, token)
    assert status == 201, (status, listing)
    return listing


def seeded_photos(count: int = 2) -> list:
    """`count` different photos of the demo data's listings, written to temporary .jpg files."""
    paths = []
    for link in demo_photo_links(count):
        with urllib.request.urlopen(BASE + link, timeout=30) as response:
            data = response.read()
        handle, path = tempfile.mkstemp(suffix=".jpg", prefix="commons-photo-")
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        paths.append(path)
    return paths


def shown_ids(browser: Browser) -> list:
    return [node.get_attribute("data-listing-id") for node in browser.find_all("li.result[data-listing-id]")]


def fresh(find):
    """`find()`, or None while the page is replacing the elements it looked at."""
    try:
        return find()
    except StaleElementReferenceException:
        return None


def card(browser: Browser, title: str):
    """The card in "my items" whose heading is `title`."""
    def found():
        for node in browser.find_all("li.result"):
            headings = node.find_elements(By.CSS_SELECTOR, "h3")
            if headings and headings[0].text == title:
                return node
        return None
    return browser.wait(lambda: fresh(found), message=f"the card of {title!r}")


def press_in(browser: Browser, title: str, label: str):
    """Presses the button whose visible text starts with `label` in the card of `title`."""
    def button():
        for node in card(browser, title).find_elements(By.CSS_SELECTOR, "button"):
            if node.text.strip().startswith(label) and node.is_displayed() and node.is_enabled():
                return node
        return None
    def pressed():
        node = button()
        if node is None:
            return False
        browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", node)
        node.click()
        return True
    browser.wait(lambda: fresh(pressed), message=f"{label!r} in the card of {title!r}")


def show_more(browser: Browser, label: str, css: str, count: int):
    """Presses the button `label`, waits until `count` elements match `css`, and sees the
    button go, as nothing more is left to show."""
    more = browser.wait(lambda: next((node for node in browser.find_all("button") if node.text.strip() == label
                                      and node.is_displayed()), None), message=label)
    browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", more)
    more.click()
    browser.wait(lambda: len(browser.find_all(css)) == count, message=f"{count} of {css}")
    browser.wait(lambda: not more.is_displayed(), message=f"no {label!r} once all are shown")


def card_text(browser: Browser, title: str, text: str):
    browser.wait(lambda: fresh(lambda: text in card(browser, title).text), message=f"{text!r} in the card of {title!r}")


class FindAndAsk(JourneyTest):
    """(a) A newcomer signs up, browses the feed and the map, filters, opens an item, asks for it and writes to the giver."""

    # Its results are checked against the API's for everyone's listings (run_journeys.py).
    RUN_ALONE = True

    def journey(self, browser: Browser):
        browser.sign_up("Noor Newcomer")
        start = len(browser.network_events())
        browser.open("free")
        browser.wait_for_heading("Free things near you")
        browser.wait(lambda: len(browser.find_all("li.result")) > 0, message="results near the demo centre")
        self.assertEqual(shown_ids(browser), [item["id"] for item in nearby(radius=5, unit="km")])
        browser.wait(lambda: browser.find_all("li.result .result-photo img"), message="photos in the results")
        self.assertTrue(all(node.text.startswith("Pickup") for node in browser.find_all("li.result .pickup")))
        # One search brings the photos and pickup times: no request for each listing.
        asked = [url for url in browser.requested(since=start) if "/v1/" in url]
        self.assertEqual(len([url for url in asked if "/v1/nearby/listings?" in url]), 1, asked)
        self.assertEqual([url for url in asked if re.search(r"/v1/listings/[0-9A-Fa-f-]{36}$", url)], [], "no listing fetched one by one")
        self.assertIn("about ", browser.find("li.result").text)
        self.assertTrue(all(link.get_attribute("href").startswith("https://") for link in browser.find_all("li.result .directions a")))
        self.assertEqual(len(browser.find_all("li.result .directions a")), len(browser.find_all("li.result")))
        settle(1)
        browser.check_page(screenshot="free")

        # The same results on the map, each a link to its item.
        browser.press("Map")
        browser.find("figure.map-figure svg")
        markers = browser.find_all("figure.map-figure svg a[href^='#/item/']")
        self.assertGreater(len(markers), 0)
        self.assertIn("of Amsterdam Centrum", browser.text())
        browser.check_page(screenshot="free-map", scroll_to=".results-summary")
        # A click on the map (in a corner, outside the rings, where no result is) looks around that point.
        svg = browser.find("figure.map-figure svg")
        browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", svg)
        ActionChains(browser.driver).move_to_element_with_offset(svg, -svg.size["width"] * 0.42, -svg.size["height"] * 0.42).click().perform()
        browser.wait_text("of The point you picked")
        browser.find("figure.map-figure svg")
        browser.press("List")

        # Where the device is, when the person asks for it; then back to the centre.
        browser.driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": BASE})
        browser.driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 52.3546, "longitude": 4.8937, "accuracy": 20})
        browser.press("Use where I am")
        browser.wait_text("of Where you are")
        expected = [item["id"] for item in nearby(lat=52.3546, lon=4.8937, radius=5, unit="km")]
        browser.wait(lambda: shown_ids(browser) == expected, message="the results around the device")
        browser.fill("Near", "Amsterdam Centrum")
        browser.wait(lambda: "of Amsterdam Centrum" in browser.text() and shown_ids(browser) == [item["id"] for item in nearby(radius=5, unit="km")],
                     message="the results around the centre again")

        # A category, then a radius in km, then in miles: the results are what the API finds.
        category = nearby(radius=5, unit="km")[0]["category"]
        browser.fill("Category", category)
        expected = [item["id"] for item in nearby(radius=5, unit="km", category=category)]
        browser.wait(lambda: shown_ids(browser) == expected, message=f"the {category} results")
        browser.fill("Within", "1 km")
        expected = [item["id"] for item in nearby(radius=1, unit="km", category=category)]
        browser.wait(lambda: f"within 1 km" in browser.text() and shown_ids(browser) == expected, message="the results within 1 km")
        browser.fill("Unit", "miles")
        browser.fill("Within", "2 mi")
        expected = [item["id"] for item in nearby(radius=2, unit="mi", category=category)]
        browser.wait(lambda: "within 2 mi" in browser.text() and shown_ids(browser) == expected, message="the results within 2 mi")
        self.assertTrue(expected, "something within 2 miles")
        # Distances in miles now (an item at the very spot, which another test may have
        # posted, says "nearby" instead).
        distances = [node.text for node in browser.find_all("li.result")]
        self.assertTrue(any(" mi" in text for text in distances) and not any(" km" in text for text in distances), distances)

        # An item: photo, description, pickup times, directions; ask for it.
        item = next(item for item in nearby(radius=2, unit="mi", category=category))
        browser.find(f"li.result[data-listing-id='{item['id']}'] h3 a").click()
        browser.wait_for_heading(item["title"])
        browser.wait_text("Pickup times")
        browser.wait_text(item["description"][:40])
        self.assertIn("Directions to the area", browser.text())
        status, listing, _ = api("GET", f"/v1/listings/{item['id']}")
        if listing["images"]:
            browser.wait(lambda: browser.find_all(".photos img") and browser.find(".photos img").get_attribute("naturalWidth") not in (None, "0"),
                         message="the item's photo")
        browser.wait(lambda: browser.find_all("form[aria-labelledby=request-title]"), message="the request form")
        settle(0.5)
        browser.check_page(screenshot="item")
        browser.press("Ask for it")
        browser.wait_text("You asked for this")
        browser.press("Open the conversation")
        browser.wait_for_heading(f"About {item['title']}")
        browser.wait(lambda: browser.find_all("ol.messages li.mine"), message="the request's message")
        browser.find("textarea[name=text]").send_keys("Could I come by at six tomorrow?")
        browser.press("Send")
        browser.wait(lambda: any("Could I come by at six tomorrow?" in node.text for node in browser.find_all("ol.messages li.mine")),
                     message="the message sent")
        browser.check_page()

        # The conversation is in my messages.
        browser.open("messages")
        browser.wait_text(f"About {item['title']}")
        browser.check_page()


class GiveAway(JourneyTest):
    """(b) A giver posts an item with two photos, promises it to a requester and marks it given; renews and withdraws another."""

    def journey(self, browser: Browser):
        email, password = browser.sign_up("Gita Giver")
        photos = seeded_photos(2)
        try:
            browser.open("post")
            browser.wait_for_heading("Give something away")
            upload = browser.find("input[type=file][capture=environment][multiple][accept='image/*']")
            upload.send_keys("\n".join(photos))
            browser.wait(lambda: len(browser.find_all(".photo-previews li")) == 2
                         and all("Uploaded" in node.text for node in browser.find_all(".photo-previews li")), message="two photos uploaded")
            for image in browser.find_all(".photo-previews img"):
                self.assertTrue(image.get_attribute("src").startswith("blob:"))
        finally:
            for path in photos:
                os.unlink(path)
        title = f"Oak bookshelf {uuid.uuid4().hex[:6]}"
        browser.fill("What is it?", title)
        browser.fill("Description", "Five shelves, solid oak, a scratch on the side.")
        browser.fill("Category", "Furniture")
        browser.fill("Condition", "Good")
        browser.fill("When can people come?", "Weekday evenings after six")
        browser.fill("Near", "Jordaan")
        browser.wait_text("Pickup point: Jordaan")
        browser.fill("Street address (optional)", "Bloemgracht 12")
        browser.check_page(screenshot="post")
        browser.press("Post it")

        # At once in my items (read-your-writes), with both photos.
        browser.wait_for_heading("My items")
        browser.wait_text(f"Posted “{title}”")
        card_text(browser, title, "Available")
        listing_id = card(browser, title).get_attribute("data-listing-id")
        status, listing, _ = api("GET", f"/v1/listings/{listing_id}")
        self.assertEqual(len(listing["images"]), 2)
        self.assertEqual(listing["pickupTimes"]["note"], "Weekday evenings after six")

        # Someone asks for it; the giver promises it to them and marks it given.
        _, _, requester = sign_up_by_api("Rafa Requester")
        status, request, _ = api("POST", f"/v1/listings/{listing_id}/requests", {"message": "May I have it on Friday?"}, requester)
        self.assertEqual(status, 201, request)
        browser.open("mine")
        card_text(browser, title, "Rafa Requester")
        card_text(browser, title, "May I have it on Friday?")
        settle(0.5)
        browser.check_page(screenshot="mine")
        press_in(browser, title, "Promise")
        card_text(browser, title, "Promised to Rafa Requester")
        press_in(browser, title, "Mark given")
        card_text(browser, title, "Given away")

        # Another item: renewed, then withdrawn.
        token = sign_in_by_api(email, password)
        other = post_by_api(token, f"Desk lamp {uuid.uuid4().hex[:6]}")

        def listed():  # written from elsewhere: this browser sees it once the feed has read it
            browser.driver.refresh()
            browser.find("li.result h3")
            return fresh(lambda: any(other["title"] in node.text for node in browser.find_all("li.result h3")))
        browser.wait(listed, message="the item posted from elsewhere")
        card_text(browser, other["title"], "Available")
        def version():
            return {name.lower(): value for name, value in api("GET", f"/v1/listings/{other['id']}")[2].items()}.get("etag")
        before = version()
        press_in(browser, other["title"], "Renew")
        # The renewal is an event of its own, so the version moves; the expiry keeps whole
        # seconds and is the same when the renewal falls in the post's own second.
        browser.wait(lambda: version() != before, message="the renewal")
        self.assertGreaterEqual(api("GET", f"/v1/listings/{other['id']}")[1]["expiresAt"], other["expiresAt"])
        card_text(browser, other["title"], "Available")
        self.assertFalse(card(browser, other["title"]).find_elements(By.CSS_SELECTOR, ".card-error"))
        press_in(browser, other["title"], "Withdraw")
        press_in(browser, other["title"], "Yes, withdraw it")
        card_text(browser, other["title"], "Withdrawn")
        self.assertEqual(api("GET", f"/v1/listings/{other['id']}")[1]["status"], "withdrawn")
        browser.check_page()


class ExactPickupPoint(JourneyTest):
    """(c) The exact pickup point shows to the person the item is promised to, and to nobody else."""

    def journey(self, browser: Browser):
        _, _, giver = sign_up_by_api("Pia Giver")
        email, password, chosen = sign_up_by_api("Chris Chosen")
        listing = post_by_api(giver, f"Tomato plants {uuid.uuid4().hex[:6]}", category="Other", streetAddress="Prinsengracht 263",
                              pickupLocation={"lat": 52.37518, "lon": 4.88397})
        status, request, _ = api("POST", f"/v1/listings/{listing['id']}/requests", {"message": "I would love them."}, chosen)
        self.assertEqual(status, 201, request)
        status, promised, _ = api("POST", f"/v1/listings/{listing['id']}/promise", {"requestId": request["id"]}, giver)
        self.assertEqual(status, 200, promised)

        browser.sign_in(email, password)
        browser.open(f"item/{listing['id']}")
        browser.wait_for_heading(listing["title"])
        browser.wait_text("Promised to you")
        self.assertIn("Prinsengracht 263", browser.text())
        self.assertIn("Exact pickup point", browser.text())
        browser.find("a[href*='52.37518']")
        browser.check_page()

        third = Browser(browser.size)
        try:
            email3, password3, _ = sign_up_by_api("Tess Third")
            third.sign_in(email3, password3)
            third.open(f"item/{listing['id']}")
            third.wait_for_heading(listing["title"])
            third.wait_text("promised this to someone else")
            self.assertNotIn("Prinsengracht 263", third.text())
            self.assertNotIn("Exact pickup point", third.text())
            self.assertNotIn("52.37518", third.driver.page_source)
            third.check_page()
        finally:
            third.close()


class ManyRequests(JourneyTest):
    """(d) A giver sees an item's requests twenty at a time, shows the rest, and promises it to the last to ask."""

    def journey(self, browser: Browser):
        email, password, giver = sign_up_by_api("Gus Giver")
        title = f"Bookshelf {uuid.uuid4().hex[:6]}"
        listing = post_by_api(giver, title, category="Furniture")
        for number in range(1, 22):
            _, _, requester = sign_up_by_api(f"Asker {number}")
            status, request, _ = api("POST", f"/v1/listings/{listing['id']}/requests", {"message": f"Request number {number}"}, requester)
            self.assertEqual(status, 201, request)

        browser.sign_in(email, password)
        browser.open("mine")
        card_text(browser, title, "Requests (20 shown, more waiting)")
        self.assertEqual(len(card(browser, title).find_elements(By.CSS_SELECTOR, ".request-list li")), 20)
        press_in(browser, title, "Show more requests")
        card_text(browser, title, "Requests (21)")
        card_text(browser, title, "Request number 21")
        items = card(browser, title).find_elements(By.CSS_SELECTOR, ".request-list li")
        self.assertEqual(len(items), 21)
        self.assertFalse([node for node in card(browser, title).find_elements(By.CSS_SELECTOR, "button")
                          if node.text.strip() == "Show more requests" and node.is_displayed()])

        # The last to ask is on the second page; the promise finds them there too.
        last = next(node for node in items if "Request number 21" in node.text)
        browser.wait(lambda: "Asker 21" in last.text, message="the last requester's name")
        promise = last.find_element(By.CSS_SELECTOR, "button")
        browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", promise)
        promise.click()
        card_text(browser, title, "Promised to Asker 21")
        browser.wait(lambda: fresh(lambda: card(browser, title).find_elements(By.LINK_TEXT, "Message them")), message="the promised person's conversation")
        self.assertEqual(api("GET", f"/v1/listings/{listing['id']}", token=giver)[1]["status"], "promised")
        browser.check_page()

        # Twenty-one conversations: twenty, then the rest; each opens by its own address.
        browser.open("messages")
        browser.wait_for_heading("Messages")
        browser.wait(lambda: len(browser.find_all("li.conversation")) == 20, message="the first twenty conversations")
        show_more(browser, "Show more conversations", "li.conversation", 21)
        # The last in the list (requests in one second tie, and ties go by id): opened by its
        # own address, it is the conversation with the person the list names.
        last_item = browser.find_all("li.conversation")[-1]
        browser.wait(lambda: re.search(r"asked by Asker (\d+)", last_item.text), message="the last conversation's asker")
        number = re.search(r"asked by Asker (\d+)", last_item.text).group(1)
        link = last_item.find_element(By.CSS_SELECTOR, "h2 a")
        browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
        link.click()
        browser.wait(lambda: fresh(lambda: [node.text for node in browser.find_all(".message-text")]) == [f"Request number {number}"],
                     message=f"the conversation with Asker {number}")
        browser.check_page()


class ManyItems(JourneyTest):
    """(e) A giver with more items than a page shows the rest, and a change to one of them keeps them all in view."""

    def journey(self, browser: Browser):
        email, password, giver = sign_up_by_api("Mo Many")
        # Away from the demo centre, so that no other journey's feed meets them.
        titles = [f"Jar {number} {uuid.uuid4().hex[:4]}" for number in range(1, 53)]
        for title in titles:
            post_by_api(giver, title, pickupLocation={"lat": 52.0907, "lon": 5.1214})

        browser.sign_in(email, password)
        browser.open("mine")
        browser.wait_for_heading("My items")
        browser.wait(lambda: len(browser.find_all("li.result")) == 50, message="the newest fifty items")
        first_page = {node.find_element(By.CSS_SELECTOR, "h3").text for node in browser.find_all("li.result")}
        show_more(browser, "Show more items", "li.result", 52)
        rest = sorted(set(titles) - first_page)
        self.assertEqual(len(rest), 2, rest)

        # A change to one of the rest re-reads the list, as many as were shown.
        press_in(browser, rest[0], "Withdraw")
        press_in(browser, rest[0], "Yes, withdraw it")
        card_text(browser, rest[0], "Withdrawn")
        browser.wait(lambda: len(browser.find_all("li.result")) == 52, message="still all fifty-two items")
        browser.check_page()
