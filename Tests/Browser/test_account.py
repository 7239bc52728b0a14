"""Journey 5, my account: profile, sessions (sign out elsewhere), change password, reset a
forgotten password with the emailed code, delete my account and see my things gone; and the
session's security as a browser sees it (cookies scripts cannot read, the CSRF echo, CSP)."""
import glob
import os
import re
import time

from selenium.webdriver.common.by import By

from harness import BASE, Browser, JourneyTest, api, new_email, settle


def reset_code(email: str) -> str:
    """The code in the newest reset message the outbox holds for `email`."""
    outbox = os.path.join(os.environ["COMMONS_WEB_DATA_DIR"], "outbox")
    deadline = time.time() + 15
    while time.time() < deadline:
        for path in sorted(glob.glob(os.path.join(outbox, "*.eml")), reverse=True):
            with open(path) as message:
                text = message.read()
            if f"To: {email}" in text:
                return re.search(r"^([0-9a-f-]{36}\.\S+)$", text, re.M).group(1)
        time.sleep(0.5)
    raise AssertionError(f"no reset message for {email} in {outbox}")


class MyAccount(JourneyTest):
    def journey(self, browser: Browser):
        email, password = browser.sign_up("Rosa Parks")
        browser.open("account")
        browser.wait_text(email)
        browser.find("ul.messages li.mine")  # this session, listed
        browser.check_page(screenshot="account")

        # The profile: a new name shows in the header at once.
        browser.fill("Display name", "Rosa P.")
        browser.press("Save profile")
        browser.wait(lambda: "Rosa P." in browser.driver.find_element(By.ID, "who").text, message="the new name in the header")

        # A second device signs in; this one ends it, and that device is signed out.
        other = Browser(browser.size)
        try:
            other.sign_in(email, password)
            browser.open("account")
            browser.press("Sign out there")
            browser.wait(lambda: len(browser.find_all("ul.messages li")) == 1, message="one session left")
            other.expect_status(401)  # its ended session, found out
            other.open("account")
            other.wait_text("Your session has ended")
            other.check_clean()
        finally:
            other.close()

        # A wrong current password is refused beside its field.
        browser.expect_status(401, 422)
        browser.open("account")
        browser.fill("Current password", "not my password at all")
        browser.fill("New password", "an even longer passphrase")
        browser.press("Change password")
        browser.wait(lambda: browser.find_all(".field-error") or browser.find_all(".form-error"), message="the refusal shown")
        browser.fill("Current password", password)
        browser.fill("New password", "an even longer passphrase")
        browser.press("Change password")
        browser.wait_text("Password changed")

        # Signed out, a forgotten password is reset with the emailed code.
        browser.press("Sign out")
        browser.wait(lambda: "Sign in" == browser.driver.find_element(By.ID, "who").text, message="signed out")
        browser.open("account/reset")
        browser.check_page(screenshot="account-reset")
        browser.fill("Email", email)
        browser.press("Email me a code")
        browser.wait_text("reset code is on its way")
        browser.fill("Code from the email", reset_code(email))
        browser.fill("New password", "a third long passphrase")
        browser.press("Set new password")
        browser.wait_text("Every session has ended")
        browser.sign_in(email, "a third long passphrase")


class DeleteMyAccount(JourneyTest):
    def journey(self, browser: Browser):
        # Someone with a listing, made through the API as an app would.
        email, password = new_email(), "a long test passphrase"
        status, tokens, _ = api("POST", "/v1/accounts", {"email": email, "password": password, "displayName": "Leaving Soon"})
        assert status == 201, tokens
        status, listing, _ = api("POST", "/v1/listings", {
            "title": "Bookshelf to give away", "description": "Pine, five shelves", "category": "Furniture", "condition": "good",
            "pickupLocation": {"lat": 52.3731, "lon": 4.8922}}, token=tokens["accessToken"])
        assert status == 201, listing
        browser.sign_in(email, password)
        browser.open("account")
        browser.fill(f"Type your email ({email}) to confirm", email)
        browser.press("Delete my account")
        browser.wait_for_heading("Your account is deleted")
        browser.wait(lambda: "Sign in" == browser.driver.find_element(By.ID, "who").text, message="signed out")
        # Their things are gone: the listing is not found, and they cannot sign in.
        deadline = time.time() + 10
        while api("GET", f"/v1/listings/{listing['id']}")[0] != 404 and time.time() < deadline:
            time.sleep(0.5)
        self.assertEqual(api("GET", f"/v1/listings/{listing['id']}")[0], 404)
        self.assertEqual(api("POST", "/v1/sessions", {"email": email, "password": password})[0], 401)


class SessionSecurity(JourneyTest):
    def journey(self, browser: Browser):
        browser.sign_up("Careful Person")
        cookies = browser.driver.execute_script("return document.cookie")
        self.assertIn("__Host-commons-csrf=", cookies)
        self.assertNotIn("commons-access", cookies, "the access token must not be readable by scripts")
        self.assertNotIn("commons-refresh", cookies, "the refresh token must not be readable by scripts")
        stored = browser.driver.execute_script("return JSON.stringify(localStorage) + JSON.stringify(sessionStorage)")
        self.assertNotRegex(stored, r"eyJ[A-Za-z0-9_-]{10,}\.", "no token in web storage")
        # A change without the CSRF echo is refused, even with the cookies.
        browser.expect_status(403)
        status = browser.driver.execute_async_script(
            "const done = arguments[0];"
            "fetch('/v1/me', {method: 'PATCH', headers: {'Content-Type': 'application/json'}, body: '{\"displayName\":\"Forged\"}'})"
            ".then(r => done(r.status), () => done(0));")
        self.assertEqual(status, 403)
        # The page's own policy: no inline script, no other origin.
        status, _, headers = api("GET", "/")
        self.assertEqual(status, 200)
        policy = headers.get("Content-Security-Policy", "")
        self.assertIn("script-src 'self'", policy)
        self.assertNotIn("unsafe-inline", policy)
        self.assertEqual(headers.get("X-Content-Type-Options"), "nosniff")
        settle()
