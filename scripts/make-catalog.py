#!/usr/bin/env python3
"""Writes Data/catalog.json: the demo grocery catalogue of the shopping-lists service.

Deterministic (fixed seed, ids derived from names), so running it again gives the same
file. Products are plausible groceries (base item x brand x pack size) with calories per
unit; stores belong to a few (fictional) retailers in neighbourhoods of central Amsterdam,
the demo city of `commons up`, within about 4 km of the Dam; each product is offered by
some stores at prices in euro cents. A product's image is the same-origin path
`/img/products/<name>.svg`, which the web app serves from deploy/web/img/products/
(drawn by scripts/make-product-images.py).

    python3 scripts/make-catalog.py [--products N] [--output Data/catalog.json]
"""
import argparse
import json
import random
import uuid

NAMESPACE = uuid.UUID("6d1b6f0e-3c3b-4a57-9f0c-5f8a8b7c2e11")

# name, category, [(unit, kcal per unit, base price in cents)]
BASES = [
    ("Whole milk", "Dairy", [("1 l", 640, 119), ("500 ml", 320, 79)]),
    ("Semi-skimmed milk", "Dairy", [("1 l", 460, 109), ("2 l", 920, 199)]),
    ("Greek yoghurt", "Dairy", [("500 g", 650, 229), ("1 kg", 1300, 399)]),
    ("Natural yoghurt", "Dairy", [("500 g", 310, 139), ("1 kg", 620, 239)]),
    ("Gouda cheese slices", "Dairy", [("200 g", 720, 269), ("400 g", 1440, 479)]),
    ("Aged Gouda", "Dairy", [("300 g", 1200, 499)]),
    ("Butter", "Dairy", [("250 g", 1800, 289)]),
    ("Cream cheese", "Dairy", [("200 g", 520, 189)]),
    ("Free-range eggs", "Dairy", [("6 each", 420, 249), ("10 each", 700, 389)]),
    ("Wholemeal bread", "Bakery", [("800 g", 1900, 229), ("400 g", 950, 139)]),
    ("White bread", "Bakery", [("800 g", 2100, 189)]),
    ("Croissants", "Bakery", [("4 each", 920, 199)]),
    ("Rye crackers", "Bakery", [("250 g", 900, 159)]),
    ("Bagels", "Bakery", [("4 each", 1000, 219)]),
    ("Bananas", "Produce", [("1 kg", 890, 169)]),
    ("Apples", "Produce", [("1 kg", 520, 229), ("each", 80, 35)]),
    ("Pears", "Produce", [("1 kg", 570, 249)]),
    ("Oranges", "Produce", [("2 kg", 940, 349)]),
    ("Tomatoes", "Produce", [("500 g", 90, 189)]),
    ("Cherry tomatoes", "Produce", [("250 g", 45, 149)]),
    ("Cucumber", "Produce", [("each", 45, 69)]),
    ("Carrots", "Produce", [("1 kg", 410, 119)]),
    ("Onions", "Produce", [("1 kg", 400, 129)]),
    ("Potatoes", "Produce", [("2.5 kg", 1930, 299)]),
    ("Broccoli", "Produce", [("500 g", 170, 159)]),
    ("Spinach", "Produce", [("300 g", 70, 179)]),
    ("Avocado", "Produce", [("each", 240, 99)]),
    ("Lemons", "Produce", [("4 each", 70, 149)]),
    ("Strawberries", "Produce", [("400 g", 130, 299)]),
    ("Blueberries", "Produce", [("125 g", 70, 249)]),
    ("Chicken breast", "Meat & fish", [("500 g", 825, 599), ("1 kg", 1650, 1099)]),
    ("Minced beef", "Meat & fish", [("500 g", 1250, 549)]),
    ("Pork sausages", "Meat & fish", [("400 g", 1200, 449)]),
    ("Smoked salmon", "Meat & fish", [("100 g", 180, 399)]),
    ("Cod fillets", "Meat & fish", [("400 g", 330, 699)]),
    ("Tuna in water", "Pantry", [("160 g", 190, 169)]),
    ("Spaghetti", "Pantry", [("500 g", 1780, 119)]),
    ("Penne", "Pantry", [("500 g", 1780, 119)]),
    ("Basmati rice", "Pantry", [("1 kg", 3500, 279)]),
    ("Rolled oats", "Pantry", [("500 g", 1880, 139)]),
    ("Muesli", "Pantry", [("750 g", 2700, 329)]),
    ("Cornflakes", "Pantry", [("500 g", 1890, 249)]),
    ("Peanut butter", "Pantry", [("350 g", 2070, 299)]),
    ("Strawberry jam", "Pantry", [("450 g", 1130, 229)]),
    ("Honey", "Pantry", [("350 g", 1060, 399)]),
    ("Olive oil", "Pantry", [("500 ml", 4100, 699), ("1 l", 8200, 1249)]),
    ("Sunflower oil", "Pantry", [("1 l", 8280, 299)]),
    ("Chopped tomatoes", "Pantry", [("400 g", 90, 79)]),
    ("Tomato ketchup", "Pantry", [("500 ml", 570, 249)]),
    ("Mayonnaise", "Pantry", [("500 ml", 3400, 279)]),
    ("Red lentils", "Pantry", [("500 g", 1700, 189)]),
    ("Chickpeas", "Pantry", [("400 g", 470, 99)]),
    ("Kidney beans", "Pantry", [("400 g", 380, 99)]),
    ("Plain flour", "Pantry", [("1 kg", 3640, 119)]),
    ("Granulated sugar", "Pantry", [("1 kg", 4000, 159)]),
    ("Sea salt", "Pantry", [("500 g", 0, 119)]),
    ("Ground coffee", "Drinks", [("250 g", 5, 449), ("500 g", 10, 799)]),
    ("Coffee beans", "Drinks", [("1 kg", 20, 1399)]),
    ("Black tea", "Drinks", [("40 each", 40, 259)]),
    ("Green tea", "Drinks", [("20 each", 20, 229)]),
    ("Orange juice", "Drinks", [("1 l", 450, 249)]),
    ("Apple juice", "Drinks", [("1.5 l", 690, 229)]),
    ("Sparkling water", "Drinks", [("1.5 l", 0, 69)]),
    ("Cola", "Drinks", [("1.5 l", 630, 199), ("330 ml", 139, 79)]),
    ("Oat drink", "Drinks", [("1 l", 460, 229)]),
    ("Dark chocolate", "Snacks", [("100 g", 580, 199)]),
    ("Milk chocolate", "Snacks", [("100 g", 540, 179)]),
    ("Salted crisps", "Snacks", [("200 g", 1070, 199)]),
    ("Salted peanuts", "Snacks", [("300 g", 1800, 229)]),
    ("Digestive biscuits", "Snacks", [("400 g", 1940, 179)]),
    ("Frozen peas", "Frozen", [("750 g", 610, 189)]),
    ("Frozen pizza margherita", "Frozen", [("each", 850, 299)]),
    ("Vanilla ice cream", "Frozen", [("1 l", 1000, 399)]),
    ("Fish fingers", "Frozen", [("450 g", 940, 349)]),
    ("Dishwasher tablets", "Household", [("30 each", 0, 599)]),
    ("Washing-up liquid", "Household", [("500 ml", 0, 179)]),
    ("Toilet paper", "Household", [("8 each", 0, 399)]),
    ("Kitchen roll", "Household", [("2 each", 0, 229)]),
    ("Laundry detergent", "Household", [("1.5 l", 0, 899)]),
    ("Toothpaste", "Personal care", [("75 ml", 0, 199)]),
    ("Shampoo", "Personal care", [("300 ml", 0, 349)]),
    ("Hand soap", "Personal care", [("250 ml", 0, 149)]),
]

BRANDS = ["Polderhoeve", "Zonnedal", "Het Gouden Korenveld", "Vrije Boer", "Noordkaap", "Bella Tavola", "Groenland", "Molenaar",
          "Vitaal", "Koningshof", "Blauwe Reiger", "Sterrenweide", "Oude Haven", "Lindeboom", "Duinroos", "Veldkamp",
          "Waterland", "Kaasmakerij De Hoek", "Bakkerij Smit", "Verse Oogst", "Eemland", "Stichtse Akker", "Vechtzicht",
          "De Zeeuwse Kust", "Heidegoed", "Maasvallei", "Rijnoever", "Klaverblad", "Hollandse Hoeve", "Bosrand", "Zilverstrand",
          "Fruitgaard"]

RETAILERS = ["Buurtmarkt", "Prijsknaller", "Versplein", "Biohoek", "Dagwinkel"]

# Neighbourhoods of Amsterdam around the Dam (52.3731, 4.8926): district, a shopping street, its point.
PLACES = [
    ("Centrum", "Nieuwendijk", 52.3763, 4.8937), ("Jordaan", "Westerstraat", 52.3781, 4.8833),
    ("De Pijp", "Ferdinand Bolstraat", 52.3553, 4.8923), ("Oud-West", "Kinkerstraat", 52.3667, 4.8722),
    ("Oost", "Dapperstraat", 52.3631, 4.9268), ("Plantage", "Plantage Middenlaan", 52.3662, 4.9122),
    ("Spaarndammerbuurt", "Spaarndammerstraat", 52.3879, 4.8801), ("Noord", "Van der Pekstraat", 52.3893, 4.9183),
    ("Rivierenbuurt", "Scheldestraat", 52.3474, 4.8985), ("Oud-Zuid", "Van Baerlestraat", 52.3581, 4.8797),
    ("Bos en Lommer", "Bos en Lommerweg", 52.3786, 4.8551), ("Nieuwmarkt", "Nieuwe Hoogstraat", 52.3713, 4.8993),
]


def image_path(name):
    """The same-origin picture of every product called `name` (see scripts/make-product-images.py)."""
    return "/img/products/" + name.lower().replace(" ", "-").replace("'", "") + ".svg"


def uid(*parts):
    return str(uuid.uuid5(NAMESPACE, "/".join(parts)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--products", type=int, default=3000)
    parser.add_argument("--output", default="Data/catalog.json")
    args = parser.parse_args()
    rng = random.Random(20261122)

    stores = []
    for index, (district, street, lat, lon) in enumerate(PLACES * 2):
        retailer = RETAILERS[index % len(RETAILERS)]
        if any(s["retailer"] == retailer and s["district"] == district for s in stores):
            continue
        stores.append({
            "id": uid("store", retailer, district), "retailer": retailer, "district": district,
            "name": f"{retailer} {district}",
            "address": f"{street} {rng.randint(1, 180)}, Amsterdam",
            "lat": round(lat + rng.uniform(-0.0015, 0.0015), 6), "lon": round(lon + rng.uniform(-0.0025, 0.0025), 6),
        })
    retailer_factor = {r: 0.9 + 0.05 * i for i, r in enumerate(RETAILERS)}

    candidates = []
    for name, category, packs in BASES:
        for brand in BRANDS:
            for unit, kcal, price in packs:
                candidates.append((name, category, brand, unit, kcal, price))
    rng.shuffle(candidates)
    products = []
    for name, category, brand, unit, kcal, price in sorted(candidates[: args.products], key=lambda c: (c[0], c[2], c[3])):
        brand_factor = 0.8 + (sum(map(ord, brand)) % 9) / 10
        offered = rng.sample(stores, rng.randint(2, 6))
        offers = []
        for store in sorted(offered, key=lambda s: s["id"]):
            amount = max(19, int(round(price * brand_factor * retailer_factor[store["retailer"]] * rng.uniform(0.92, 1.08))))
            offers.append({"storeId": store["id"], "price": {"amountMinor": amount, "currency": "EUR"}})
        products.append({
            "id": uid("product", brand, name, unit), "name": name, "brand": brand, "category": category, "unit": unit,
            "image": image_path(name),
            "caloriesPerUnit": int(round(kcal * rng.uniform(0.95, 1.05))), "offers": offers,
        })
    for store in stores:
        del store["district"]
    catalog = {"stores": stores, "products": products}
    with open(args.output, "w", encoding="utf-8") as file:
        json.dump(catalog, file, indent=1, ensure_ascii=False, sort_keys=True)
        file.write("\n")
    print(f"{args.output}: {len(products)} products, {len(stores)} stores of {len(RETAILERS)} retailers")


if __name__ == "__main__":
    main()
