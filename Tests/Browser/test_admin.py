"""The operator console (issue 19, item 3): moderation and organisation verification.

Three people report a listing someone else posted (as many as hide it pending review) and
one of them reports a second listing; a member who opens #/admin is told the console is for
administrators and finds no link to it on their account page. The demo administrator opens
the console from the account page, sees both listings in the queue with their photo, owner,
status, reasons and counts, removes the hidden one (it stays out of the feed and out of
everyone's reach but its owner's) and dismisses the other's reports (it stays up); then
verifies a new, unverified organisation and withdraws the verification, each checked through
the API as well.
"""
import json
import urllib.request
import uuid

from selenium.webdriver.common.by import By

from harness import BASE, DEMO_ADMIN, DEMO_PASSWORD, JourneyTest, api, demo_photo_links, settle, sign_up_by_api

# One process for both journeys (run_journeys.py): the console's queue reads every reported
# listing, and one of them removed by the other journey at that moment would answer 404.
RUN_TOGETHER = True

# Distinct reporters that hide a listing (COMMONS_LISTING_REPORT_THRESHOLD's default), each of
# full weight although just signed up: check-web.sh starts the stack with
# COMMONS_LISTING_REPORTER_ESTABLISHED_DAYS=0.
HIDING_REPORTERS = 3
UNSAFE = "Unsafe: the cable is frayed"


def photo_of_demo_item(token: str) -> str:
    """A photo of one of the demo data's listings, uploaded again as `token`'s own: its image id."""
    link = demo_photo_links(1)[0]
    with urllib.request.urlopen(BASE + link, timeout=30) as response:
        data, kind = response.read(), response.headers.get("Content-Type")
    upload = urllib.request.Request(BASE + "/v1/images", data=data, method="POST",
                                    headers={"Content-Type": kind, "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(upload, timeout=30) as response:
        return json.loads(response.read())["id"]


def post(token: str, title: str, image_ids=()) -> dict:
    status, listing, _ = api("POST", "/v1/listings", {
        "title": title, "description": "Posted by the console's test.", "category": "Household", "condition": "fair",
        "pickupLocation": {"lat": 52.3725, "lon": 4.8930}, "imageIds": list(image_ids)}, token)
    assert status == 201, (status, listing)
    return listing


def report(token: str, listing_id: str, reason: str):
    status, body, _ = api("POST", f"/v1/listings/{listing_id}/reports", {"reason": reason}, token)
    assert status == 202, (status, body)


def admin_token() -> str:
    status, body, _ = api("POST", "/v1/sessions", {"email": DEMO_ADMIN, "password": DEMO_PASSWORD})
    assert status in (200, 201), (status, body)
    return body["accessToken"]


def queued_ids(token: str) -> set:
    status, body, _ = api("GET", "/v1/listings/reports", token=token)
    assert status == 200, (status, body)
    return {item["listingId"].lower() for item in body["items"]}


def in_feed(listing_id: str, word: str) -> bool:
    status, page, _ = api("GET", f"/v1/listings?q={word}&limit=50")
    assert status == 200, (status, page)
    return any(item["id"].lower() == listing_id.lower() for item in page["items"])


def element(b, css: str, attribute: str, value: str):
    """The element `css` whose data attribute `attribute` is `value` (ids in either case), or None."""
    return b.driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].find((n) => (n.dataset[arguments[1]] || '').toLowerCase() === arguments[2]) || null",
        css, attribute, value.lower())


def press_in(b, node_of, action: str):
    """Clicks the button data-action=`action` inside the element `node_of()` finds (once it is enabled)."""
    button = b.wait(lambda: (lambda n: n and next((x for x in n.find_elements(By.CSS_SELECTOR, f"button[data-action={action}]")
                                                   if x.is_enabled()), None))(node_of()), message=f"button {action}")
    b.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


class OperatorConsole(JourneyTest):
    def journey(self, b):
        tag = uuid.uuid4().hex[:8]
        _, _, owner = sign_up_by_api(f"Owner {tag}")
        heater = post(owner, f"Fan heater {tag}", [photo_of_demo_item(owner)])
        lamp = post(owner, f"Desk lamp {tag}")
        reporters = [sign_up_by_api(f"Reporter {n} {tag}")[2] for n in range(HIDING_REPORTERS)]
        for token, reason in zip(reporters, [UNSAFE, UNSAFE, "Looks like a shop selling, not giving"]):
            report(token, heater["id"], reason)
        report(reporters[0], lamp["id"], "Wrong category")
        status, seen, _ = api("GET", f"/v1/listings/{heater['id']}", token=owner)
        self.assertEqual((status, seen["status"]), (200, "hidden"), "three reporters hide a listing")
        self.assertFalse(in_feed(heater["id"], tag))
        self.assertTrue(in_feed(lamp["id"], tag), "one report leaves a listing up")

        token = admin_token()
        status, organization, _ = api("POST", "/v1/organizations", {
            "name": f"Test Food Bank {tag}", "slug": f"test-food-bank-{tag}", "kind": "charity",
            "mission": "Food parcels for families in Amsterdam-Noord.", "currency": "EUR", "minimumDonationMinor": 100}, token)
        self.assertEqual(status, 201, organization)
        self.assertFalse(organization["verified"])

        # A member: a sentence, not an error page, and no link from the account page.
        b.sign_up(f"Curious {tag}")
        b.open("admin")
        b.wait_for_heading("Operator console")
        b.wait_text("The operator console is for administrators")
        self.assertFalse(b.find_all("main .admin-section"))
        b.check_page()
        b.open("account")
        b.wait_text("My items")
        self.assertNotIn("Operator console", b.text())
        b.press("Sign out")
        b.wait(lambda: b.driver.find_element(By.ID, "who").text == "Sign in", message="signed out")

        # The administrator opens the console from the account page.
        b.sign_in(DEMO_ADMIN)
        b.open("account")
        b.press("Operator console")
        b.wait_for_heading("Operator console")
        heater_card = lambda: element(b, "li.admin-report", "listingId", heater["id"])
        lamp_card = lambda: element(b, "li.admin-report", "listingId", lamp["id"])
        b.wait(lambda: heater_card() and lamp_card(), message="both reported listings in the queue")
        b.wait(lambda: f"posted by Owner {tag}" in heater_card().text and heater_card().find_elements(By.CSS_SELECTOR, ".result-photo img")
               and "Reporter 2" in heater_card().text, message="the owner and reporters named")
        text = heater_card().text
        for expected in ["Hidden after reports", "3 reports from 3 people", f"“{UNSAFE}” ×2", "“Looks like a shop selling, not giving”", f"Reporter 0 {tag}"]:
            self.assertIn(expected, text)
        self.assertIn("1 report", lamp_card().text)
        self.assertIn("“Wrong category”", lamp_card().text)
        self.assertEqual(heater_card().find_element(By.CSS_SELECTOR, "h3 a").get_attribute("href").split("#/")[1].lower(),
                         f"item/{heater['id'].lower()}")
        settle(0.5)
        b.check_page(screenshot="admin")

        # Remove the hidden listing: out of the queue, the feed, and everyone's reach but its owner's.
        press_in(b, heater_card, "remove")
        press_in(b, heater_card, "confirm-remove")
        b.wait_text(f"Removed “Fan heater {tag}”")
        b.wait(lambda: not heater_card(), message="the removed listing leaves the queue")
        self.assertNotIn(heater["id"].lower(), queued_ids(token))
        self.assertFalse(in_feed(heater["id"], tag))
        self.assertEqual(api("GET", f"/v1/listings/{heater['id']}")[0], 404)
        self.assertEqual(api("GET", f"/v1/listings/{heater['id']}", token=owner)[1]["status"], "hidden")

        # Dismiss the other's reports: it leaves the queue and stays up.
        press_in(b, lamp_card, "dismiss")
        b.wait_text(f"Dismissed the reports on “Desk lamp {tag}”")
        b.wait(lambda: not lamp_card(), message="the dismissed listing leaves the queue")
        self.assertNotIn(lamp["id"].lower(), queued_ids(token))
        self.assertTrue(in_feed(lamp["id"], tag))
        self.assertEqual(api("GET", f"/v1/listings/{lamp['id']}")[1]["status"], "available")

        # Verify the new organisation (listed among those not verified yet), then withdraw it.
        row = lambda: element(b, "li.admin-organization", "slug", organization["slug"])
        b.wait(row, message="the unverified organisation listed")
        self.assertIn("Not verified", row().text)
        press_in(b, row, "verify")
        b.wait(lambda: row() and "Withdraw verification" in row().text and "✓ Verified" in row().text, message="verified in place")
        b.wait_text(f"Verified Test Food Bank {tag}.")
        self.assertTrue(api("GET", f"/v1/organizations/{organization['slug']}")[1]["verified"])
        press_in(b, row, "withdraw")
        b.wait(lambda: row() and "Not verified" in row().text and row().find_elements(By.CSS_SELECTOR, "button[data-action=verify]"),
               message="withdrawn in place")
        b.wait_text(f"Withdrew the verification of Test Food Bank {tag}.")
        self.assertFalse(api("GET", f"/v1/organizations/{organization['slug']}")[1]["verified"])

        # The verified ones are a choice away, found by name.
        b.fill("Show", "All")
        b.fill("Name", f"Food Bank {tag}")
        b.press("Show organisations")
        b.wait(lambda: len(b.find_all("li.admin-organization")) == 1 and row(), message="found by name among all")
        b.check_page()


class EventLogAndReadModels(JourneyTest):
    """The console's event log and read models (issue 19, item 3).

    Someone posts a listing; the administrator finds its stream in the event log, reads the
    posting's body (its text sealed, never in clear) and follows the stream's name to its
    history; narrows the log to a category; then, in the read models, sees the listings
    projections caught up, parks the posting's event for one of them and takes it back (both
    checked through the API), and replays the read model to the end, the listing still there.
    """

    def journey(self, b):
        tag = uuid.uuid4().hex[:8]
        _, _, owner = sign_up_by_api(f"Poster {tag}")
        title = f"Rocking chair {tag}"
        listing = post(owner, title)
        stream = f"listing-{listing['id'].lower()}"
        token = admin_token()
        status, history, _ = api("GET", f"/v1/admin/log/streams/{stream}", token=token)
        self.assertEqual(status, 200, history)
        first = history["events"][0]["event"]

        b.sign_in(DEMO_ADMIN)
        b.open("admin")
        b.wait_for_heading("Operator console")
        b.wait(lambda: b.find_all("li.admin-event"), message="the log's first page")

        # Newest first (the posting is no older than the newest shown), and older events a press away.
        positions = lambda: [int(node.get_attribute("data-position")) for node in b.find_all("li.admin-event")]
        newest = positions()
        self.assertEqual(newest, sorted(newest, reverse=True), "the log reads newest first")
        self.assertGreaterEqual(newest[0], first["position"])
        b.press("Show older events")
        b.wait(lambda: len(positions()) > len(newest), message="the older page")
        both = positions()
        self.assertEqual(both[:len(newest)], newest)
        self.assertEqual(both, sorted(both, reverse=True), "older events follow, still newest first")
        self.assertLess(both[len(newest)], newest[-1])

        # One stream: its events, the text sealed with the owner's key.
        b.fill("Stream", stream)
        b.press("Show events")
        posted = lambda: element(b, "li.admin-event", "eventId", first["id"])
        b.wait(posted, message="the posting in its stream's history")
        # Through wait: the console may redraw the list between finding an entry and reading it.
        b.wait(lambda: "Personal data sealed" in posted().text, message="the posting's text shown sealed")
        b.wait(lambda: all(stream in node.text for node in b.find_all("li.admin-event")), message="only its stream's events")
        details = posted().find_element(By.CSS_SELECTOR, "details")
        details.find_element(By.CSS_SELECTOR, "summary").click()
        body = b.wait(lambda: details.find_element(By.CSS_SELECTOR, "pre").text, message="the body and metadata")
        self.assertIn(first["id"], body)
        self.assertNotIn(title, body, "the title is sealed in the log")
        settle(0.3)
        b.check_page(screenshot="admin-log", scroll_to="#admin-log-title")

        # A category, newest first: every event's stream is in it.
        b.fill("Stream", "")
        b.fill("Category", "account")
        b.press("Show events")
        b.wait(lambda: b.find_all("li.admin-event") and all(
            node.find_element(By.CSS_SELECTOR, "button.link").text.startswith("account-") for node in b.find_all("li.admin-event")),
            message="only account events")

        # The read models of listings: caught up; park the posting's event and take it back.
        b.fill("Service", "listings")
        b.press("Show read model")
        row = lambda: b.driver.execute_script("return document.querySelector('tr[data-projection=\"listings.listings\"]')")
        b.wait(lambda: row() and "Caught up" in row().text, message="the listings projection caught up")
        settle(0.3)
        b.check_page(screenshot="admin-read-models", scroll_to="#admin-projections-title")
        b.fill("Projection", "listings.listings")
        b.fill("Event id", first["id"])
        b.fill("Reason", f"Checked by the console test {tag}")
        # The view drawn again (another load, as a replay followed does) keeps what was typed.
        b.driver.execute_script("document.querySelector('form.admin-park').dataset.drawn = 'before'")
        b.fill("Service", "listings")
        b.press("Show read model")
        b.wait(lambda: b.driver.execute_script("const f = document.querySelector('form.admin-park'); return f && !f.dataset.drawn"),
               message="the read model drawn again")
        self.assertEqual(b.field("Projection").get_attribute("value"), "listings.listings")
        self.assertEqual(b.field("Event id").get_attribute("value"), first["id"])
        b.press("Park event")
        parked = lambda: element(b, ".admin-parked li", "eventId", first["id"])
        b.wait(parked, message="the event listed as parked")
        self.assertIn(f"Checked by the console test {tag}", parked().text)
        self.assertEqual(parked().get_attribute("data-projection"), "listings.listings", "parked for the projection chosen")
        status, projections, _ = api("GET", "/v1/admin/listings/projections", token=token)
        listed = next(p for p in projections["projections"] if p["name"] == "listings.listings")["parked"]
        self.assertIn(first["id"].lower(), [event["eventId"] for event in listed])
        press_in(b, parked, "unpark")
        b.wait(lambda: not parked(), message="taken back")
        status, projections, _ = api("GET", "/v1/admin/listings/projections", token=token)
        listed = next(p for p in projections["projections"] if p["name"] == "listings.listings")["parked"]
        self.assertNotIn(first["id"].lower(), [event["eventId"] for event in listed])

        # A replay runs to its end and swaps in; the listing is still there.
        b.press("Replay read model")
        b.wait(lambda: "The last replay is done" in b.find(".admin-replay").text, timeout=120, message="the replay done")
        self.assertEqual(api("GET", f"/v1/listings/{listing['id']}")[0], 200)
        b.check_page()
