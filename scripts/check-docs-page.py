#!/usr/bin/env python3
"""Checks the API's documentation as a gateway serves it, in a real headless Chromium.

Usage: /usr/bin/python3 scripts/check-docs-page.py BASE_URL [SCREENSHOT.png]

1. `/openapi.json` is deploy/docs/openapi.json, as JSON; `/docs` redirects to `/docs/`.
2. The page at `/docs/` renders every operation of the document (no request leaves the
   gateway: the page loads nothing from elsewhere), the browser logs no error, and the
   filter box narrows the list to the operations that match.
3. At phone size (390 px): no sideways scrolling, the service list above the operations,
   an opened operation with its example.
4. With SCREENSHOT, pictures of the page for docs/api.md (laptop, and SCREENSHOT-phone.png).

Needs Debian's chromium, chromium-driver and python3-selenium (hence /usr/bin/python3).
Exits non-zero, saying why, on the first failure.
"""
import http.client
import json
import os
import sys
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def fetch(base: str, path: str) -> http.client.HTTPResponse:
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    connection.request("GET", path)
    return connection.getresponse()


def main() -> None:
    base = sys.argv[1].rstrip("/")
    screenshot = sys.argv[2] if len(sys.argv) > 2 else None
    committed = open(os.path.join(ROOT, "deploy", "docs", "openapi.json"), "rb").read()
    document = fetch(base, "/openapi.json")
    body = document.read()
    if document.status != 200 or body != committed or not document.getheader("Content-Type", "").startswith("application/json"):
        sys.exit(f"/openapi.json: {document.status} {document.getheader('Content-Type')}, not deploy/docs/openapi.json")
    api = json.loads(body)
    operations = sum(1 for item in api["paths"].values() for method in item if method in ("get", "post", "put", "patch", "delete"))
    redirect = fetch(base, "/docs")
    if redirect.status != 301 or not redirect.getheader("Location", "").endswith("/docs/"):
        sys.exit(f"/docs: {redirect.status} to {redirect.getheader('Location')}, not a redirect to /docs/")

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(base + "/docs/")
        WebDriverWait(driver, 20).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-operations"))
        rendered = driver.find_element(By.TAG_NAME, "body").get_attribute("data-operations")
        if rendered != str(operations):
            sys.exit(f"the page shows {rendered} operations; the document has {operations}")
        services = [link.text.split("\n")[0] for link in driver.find_elements(By.CSS_SELECTOR, "#services a")]
        if services != [tag["name"] for tag in api["tags"]]:
            sys.exit(f"the page lists the services {services}, the document {[tag['name'] for tag in api['tags']]}")
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        if errors:
            sys.exit(f"the browser logged errors: {errors}")

        # One operation opened, as a reader would, for the screenshot and to see its parts.
        nearby = driver.find_element(By.CSS_SELECTOR, "details.operation[data-search^='get /v1/nearby/listings ']")
        nearby.find_element(By.TAG_NAME, "summary").click()
        shown = nearby.text
        for word in ("lat", "lon", "Parameters", "Responses", "Commons-Min-Position", "distanceMeters"):
            if word not in shown:
                sys.exit(f"GET /v1/nearby/listings opened does not show {word!r}: {shown[:300]}")

        search = driver.find_element(By.ID, "filter")
        search.send_keys("nearby")
        visible = [card for card in driver.find_elements(By.CSS_SELECTOR, "details.operation") if card.is_displayed()]
        if not visible or len(visible) >= operations or any("nearby" not in card.get_attribute("data-search") for card in visible):
            sys.exit(f"filtering by 'nearby' left {len(visible)} of {operations} operations shown")
        search.clear()
        driver.execute_script("document.getElementById('filter').dispatchEvent(new Event('input'))")
        if screenshot:
            driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", nearby)
            driver.save_screenshot(screenshot)

        # A phone (390 px wide): nothing wider than the screen, the service list not over the
        # operations, and an opened operation with its example readable.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        driver.get(base + "/docs/")
        WebDriverWait(driver, 20).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-operations"))
        post = driver.find_element(By.CSS_SELECTOR, "details.operation[data-search^='post /v1/listings ']")
        post.find_element(By.TAG_NAME, "summary").click()
        driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", post)
        width, page = driver.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
        if page > width:
            sys.exit(f"at 390 px the page is {page} px wide: it scrolls sideways")
        if driver.find_element(By.ID, "services").value_of_css_property("position") != "static":
            sys.exit("at 390 px the service list floats over the operations")
        if not post.find_elements(By.CSS_SELECTOR, "pre.example"):
            sys.exit("POST /v1/listings opened shows no example")
        if screenshot:
            driver.save_screenshot(screenshot.replace(".png", "-phone.png"))
    finally:
        driver.quit()
    print(f"check-docs-page: /openapi.json is the committed document; /docs/ renders its {operations} operations "
          f"of {len(api['tags'])} services in headless Chromium, with no browser error, filters them, and fits a phone")


if __name__ == "__main__":
    main()
