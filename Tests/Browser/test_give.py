"""Journey 3: donation centres and charities (DonateIt, CS50, GiveWell).

A new person opens Give, sees donation centres on the map and in a list with their hours and
what they accept, narrows the centres and the charities down, opens a verified charity (its
badge, mission, homepage and an impact estimate with its source), tops up the wallet, donates
a suggested amount and then one of their own, is told beside the amount field why a wrong
amount is refused, finds both donations with their times and the wallet's new balance at
once, sees what the donations do, shares one in the public feed, and is among the supporters.
"""
import re
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from harness import JourneyTest, api

HOURS = re.compile(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d:\d\d–\d\d:\d\d")


def charity_to_give_to():
    """A verified charity of the demo data with a tag, a homepage, suggested amounts and an impact estimate."""
    status, page, _ = api("GET", "/v1/organizations?kind=charity&verified=true&limit=100")
    assert status == 200, (status, page)
    for charity in page["items"]:
        if charity["tags"] and charity.get("homepage") and charity["suggestedAmountsMinor"] and charity["impactEstimates"] \
                and charity["impactEstimates"][0]["currency"] == charity["currency"]:
            return charity
    raise AssertionError("the demo data has no verified charity with a tag, homepage, suggested amounts and an impact estimate")


def sign_up_into_give(b, display_name):
    """The sign-up form, going on to Give (and so straight past the Free page and its position lookup)."""
    b.sign_up(display_name, going_to="give")


def text_of(b, css: str) -> str:
    """The text of the first element `css` finds now ('' when none): never a stale element, as the page redraws."""
    return b.driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.innerText : ''", css)


def texts_of(b, css: str) -> list:
    """The texts of every element `css` finds now."""
    return b.driver.execute_script("return [...document.querySelectorAll(arguments[0])].map((e) => e.innerText)", css)


def major(amount_minor: int) -> str:
    """An amount as its digits show in any currency format of the page: 1250 → '12.50'."""
    return f"{amount_minor // 100:,}.{amount_minor % 100:02d}"


class DonationCentresAndCharities(JourneyTest):
    def journey(self, b):
        charity = charity_to_give_to()
        currency, suggested = charity["currency"], charity["suggestedAmountsMinor"][0]
        tag = charity["tags"][0]
        name = f"Giver {uuid.uuid4().hex[:6]}"
        sign_up_into_give(b, name)

        # Give: centres on the map and in a list, with hours and what they accept.
        b.wait_for_heading("Give")
        b.wait(lambda: len(b.find_all(".centre-list li.centre")) >= 2, message="donation centres in the list")
        centres = b.find_all(".centre-list li.centre")
        markers = b.find_all(".centres svg.map a .map-marker.centre")
        self.assertEqual(len(markers), len(centres), "every centre listed is on the map")
        for centre in centres:
            self.assertIn("Accepts:", centre.text)
        self.assertTrue(any(HOURS.search(centre.text) for centre in centres), "opening hours are shown")
        accepts = b.field("Accepts")
        category = [o.text for o in Select(accepts).options if o.get_attribute("value")][0]
        b.fill("Accepts", category)
        b.wait(lambda: "accept " + category.lower() in text_of(b, ".centres figcaption"), message="the centres filtered")
        b.wait(lambda: all(category in text.split("Accepts:")[1].split("\n")[0] for text in texts_of(b, ".centre-list li.centre")),
               message=f"only centres that accept {category}")

        # Charities by tag.
        b.wait(lambda: len(b.find_all(".charity-list li.charity")) >= 2, message="charities")
        b.fill("Tag", f"#{tag}")
        b.wait(lambda: f"for #{tag}" in text_of(b, ".charities [aria-live]"), message="charities with the tag")
        cards = b.find_all(".charity-list li.charity")
        self.assertTrue(cards and all(f"#{tag}" in card.text for card in cards))
        self.assertTrue(any(charity["name"] in card.text for card in cards))
        b.check_page(screenshot="give")

        # The charity: verified badge, mission, homepage, an impact estimate with its source.
        b.press(charity["name"])
        # (harness.wait_for_heading can hold the old page's h1 as it is replaced: a stale element.)
        b.wait(lambda: charity["name"] in text_of(b, "main h1"), message="the charity's page")
        b.wait_text(charity["mission"])
        self.assertIn("Verified", text_of(b, ".about .badge.verified"))
        homepage = b.find(".about a.homepage")
        self.assertEqual(homepage.get_attribute("href").rstrip("/"), charity["homepage"].rstrip("/"))
        estimate = text_of(b, ".impact .estimate.current")
        self.assertIn(f"per {charity['impactEstimates'][0]['outcomeUnit']}", estimate)
        self.assertIn("Source: " + charity["impactEstimates"][0]["source"], estimate)
        # Before giving, the form says what the chosen amount does, in the estimate's unit, with its source.
        in_force = charity["impactEstimates"][0]
        b.wait(lambda: major(suggested) in text_of(b, ".donate-form .impact-preview"), message="what the suggested amount does")
        preview = text_of(b, ".donate-form .impact-preview")
        self.assertIn(" gives about ", preview)
        self.assertIn(in_force["source"], preview)
        b.wait(lambda: "0.00" in text_of(b, ".balance"), message="the empty wallet")

        # Top up (the form is open: the wallet holds less than the smallest donation).
        b.fill("Top-up amount", "50")
        b.fill("Card number", "4242 4242 4242 4242")
        b.press("Top up")
        b.wait(lambda: major(5000) in text_of(b, ".balance-amount"), message="the topped-up balance")

        # A suggested amount (chosen at first), then an own one.
        b.press("Donate")
        b.wait(lambda: major(suggested) in text_of(b, ".thanks"), message="thanks for the suggested amount")
        b.wait(lambda: major(5000 - suggested) in text_of(b, ".balance-amount"), message="the balance after the first donation")
        b.fill(f"Your own amount ({currency})", "12.50")
        b.press("Donate")
        b.wait(lambda: major(1250) in text_of(b, ".thanks"), message="thanks for the own amount")
        left = 5000 - suggested - 1250
        b.wait(lambda: major(left) in text_of(b, ".balance-amount"), message="the balance after the second donation")
        b.wait(lambda: any(name in text and text.startswith("You") for text in texts_of(b, ".supporters li.me")), message="me among the supporters")

        # Wrong amounts: the API's sentence beside the amount field.
        b.expect_status(409, 422)
        own = b.fill(f"Your own amount ({currency})", "999")
        b.press("Donate")
        beside = lambda: own.find_element(By.XPATH, "..").find_elements(By.CSS_SELECTOR, ".field-error")
        b.wait(lambda: beside() and "less than this donation" in beside()[0].text, message="too much for the wallet, beside the amount")
        self.assertIn(major(left), beside()[0].text)
        self.assertEqual(own.get_attribute("aria-invalid"), "true")
        b.fill(f"Your own amount ({currency})", "0")
        b.press("Donate")
        b.wait(lambda: beside() and "positive" in beside()[0].text, message="a zero amount refused, beside the amount")
        b.check_page(screenshot="organization")

        # My donations, at once: both with their times, the balance, what they do.
        b.open("donations")
        b.wait_for_heading("My giving")
        b.wait(lambda: len(texts_of(b, ".donation-list li.donation")) == 2, message="both donations")
        donations = texts_of(b, ".donation-list li.donation")
        self.assertIn(major(1250), donations[0])
        self.assertIn(major(suggested), donations[1])
        times = b.driver.execute_script("return [...document.querySelectorAll('.donation-list li.donation time')].map((t) => t.dateTime)")
        self.assertEqual(len(times), 2)
        self.assertTrue(all(times), "each donation says when it was made")
        b.wait(lambda: major(left) in text_of(b, ".wallet-balance"), message="the balance on My giving")
        b.wait(lambda: b.find_all(".impact-line"), message="an impact line")
        self.assertTrue(text_of(b, ".impact-line").startswith("about "))
        self.assertIn(charity["impactEstimates"][0]["source"], text_of(b, ".impact-list"))

        # A top-up in another currency, here.
        b.fill("Top-up amount", "10")
        b.fill("Currency", "EUR" if currency != "EUR" else "USD")
        b.fill("Card number", "4242424242424242")
        b.press("Top up")
        b.wait(lambda: "10.00" in text_of(b, ".wallet-balance") and major(left) in text_of(b, ".wallet-balance"), message="both balances")

        # Share one and find it in the public feed.
        caption = f"Gave with Commons, {uuid.uuid4().hex[:6]}"
        b.press("Share")
        b.fill("What would you like to say?", caption)
        b.press("Post to the feed")
        b.wait(lambda: any(caption in text for text in texts_of(b, ".feed .post")), message="the post in the feed")
        b.wait_text("Shared in the feed.")
        b.check_page(screenshot="donations")

        status, feed, _ = api("GET", "/v1/donation-posts?limit=20")
        self.assertTrue(any(post["caption"] == caption for post in feed["items"]))
