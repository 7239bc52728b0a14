#!/usr/bin/env python3
"""Writes deploy/web/img/products/<name>.svg: one small drawing per kind of grocery in
Data/catalog.json (the catalogue's `image` is that same-origin path, see make-catalog.py).

Drawn here, not downloaded: each product is one of a few shapes (carton, bottle, jar,
bag, fruit...) in its own colours, on a light tile, with no text (no fonts needed), so
that a list of products is told apart at a glance. Deterministic: running it again gives
the same files.

    python3 scripts/make-product-images.py [--catalog Data/catalog.json] [--output deploy/web/img/products]
"""
import argparse
import json
import os

# Shapes in a 0 0 120 120 view box; {a} is the main colour, {b} the second one.
SHAPES = {
    "carton": '<path d="M38 34 L60 20 L82 34 V104 H38 Z" fill="{a}"/><path d="M38 34 H82 V50 H38 Z" fill="{b}"/>'
              '<path d="M52 14 H68 V22 H52 Z" fill="#777"/><rect x="46" y="64" width="28" height="26" rx="4" fill="#fff" opacity=".85"/>',
    "bottle": '<path d="M54 12 H66 V30 C80 36 82 44 82 56 V104 C82 108 80 110 76 110 H44 C40 110 38 108 38 104 V56 C38 44 40 36 54 30 Z" '
              'fill="{a}"/><rect x="53" y="8" width="14" height="10" rx="2" fill="{b}"/><rect x="40" y="64" width="40" height="24" fill="{b}"/>',
    "jar": '<rect x="34" y="40" width="52" height="66" rx="10" fill="{a}"/><rect x="36" y="28" width="48" height="14" rx="3" fill="{b}"/>'
           '<rect x="40" y="60" width="40" height="26" rx="3" fill="#fff" opacity=".85"/>',
    "tub": '<path d="M30 44 H90 L84 104 H36 Z" fill="{a}"/><rect x="26" y="36" width="68" height="10" rx="4" fill="{b}"/>'
           '<circle cx="60" cy="74" r="13" fill="#fff" opacity=".85"/>',
    "can": '<rect x="36" y="30" width="48" height="76" rx="6" fill="{a}"/><ellipse cx="60" cy="30" rx="24" ry="6" fill="#bbb"/>'
           '<rect x="36" y="52" width="48" height="32" fill="{b}"/>',
    "bag": '<path d="M34 30 H86 L90 108 H30 Z" fill="{a}"/><path d="M34 30 L40 20 H80 L86 30 Z" fill="{b}"/>'
           '<rect x="42" y="56" width="36" height="30" rx="4" fill="#fff" opacity=".85"/>',
    "box": '<rect x="30" y="24" width="60" height="84" rx="3" fill="{a}"/><rect x="30" y="24" width="60" height="18" fill="{b}"/>'
           '<circle cx="60" cy="74" r="16" fill="{b}"/>',
    "bar": '<rect x="22" y="42" width="76" height="36" rx="3" fill="{a}"/><rect x="22" y="42" width="24" height="36" fill="{b}"/>'
           '<path d="M46 42 V78 M64 42 V78 M82 42 V78" stroke="#000" stroke-opacity=".2" stroke-width="2"/>',
    "round": '<circle cx="60" cy="66" r="34" fill="{a}"/><path d="M60 32 C60 24 62 20 66 16" stroke="#6b4" stroke-width="4" fill="none"/>'
             '<ellipse cx="72" cy="22" rx="9" ry="5" fill="{b}"/><ellipse cx="48" cy="54" rx="8" ry="5" fill="#fff" opacity=".35"/>',
    "pile": '<circle cx="44" cy="80" r="18" fill="{a}"/><circle cx="76" cy="80" r="18" fill="{a}"/><circle cx="60" cy="56" r="18" fill="{a}"/>'
            '<circle cx="60" cy="40" r="3" fill="{b}"/><circle cx="44" cy="64" r="3" fill="{b}"/><circle cx="76" cy="64" r="3" fill="{b}"/>',
    "bunch": '<path d="M30 40 C34 80 60 100 96 92 C70 92 48 76 42 40 Z" fill="{a}"/><path d="M40 38 C48 76 70 88 100 80 C76 78 58 64 52 36 Z" '
             'fill="{a}" stroke="{b}" stroke-width="2"/><rect x="36" y="28" width="10" height="14" rx="2" fill="#6b5"/>',
    "long": '<path d="M24 88 L84 28 C92 22 100 30 94 38 L34 98 C28 102 20 94 24 88 Z" fill="{a}"/>'
            '<path d="M90 30 L104 16 M94 34 L108 24 M86 28 L94 12" stroke="{b}" stroke-width="4" stroke-linecap="round"/>',
    "leafy": '<rect x="54" y="70" width="12" height="36" rx="4" fill="{b}"/><circle cx="46" cy="58" r="20" fill="{a}"/>'
             '<circle cx="74" cy="58" r="20" fill="{a}"/><circle cx="60" cy="42" r="20" fill="{a}"/>',
    "loaf": '<path d="M20 90 V64 C20 40 100 40 100 64 V90 Z" fill="{a}"/><path d="M40 54 L48 66 M58 50 L64 64 M76 52 L80 66" '
            'stroke="{b}" stroke-width="4" stroke-linecap="round"/>',
    "crescent": '<path d="M16 80 C30 40 90 40 104 80 C90 70 80 68 72 74 C66 64 54 64 48 74 C40 68 30 70 16 80 Z" fill="{a}"/>'
                '<path d="M48 74 C52 58 68 58 72 74" stroke="{b}" stroke-width="3" fill="none"/>',
    "ring": '<circle cx="60" cy="64" r="36" fill="{a}"/><circle cx="60" cy="64" r="12" fill="#f4f1ea"/>'
            '<circle cx="48" cy="50" r="2" fill="{b}"/><circle cx="70" cy="46" r="2" fill="{b}"/><circle cx="78" cy="70" r="2" fill="{b}"/>',
    "wedge": '<path d="M18 84 L96 42 L102 84 Z" fill="{a}"/><path d="M18 84 H102 V96 H18 Z" fill="{b}"/>'
             '<circle cx="70" cy="70" r="5" fill="#fff" opacity=".5"/><circle cx="86" cy="60" r="3" fill="#fff" opacity=".5"/>',
    "block": '<rect x="24" y="46" width="72" height="40" rx="4" fill="{a}"/><rect x="24" y="46" width="72" height="12" fill="{b}"/>',
    "eggs": '<rect x="18" y="66" width="84" height="30" rx="4" fill="{b}"/><ellipse cx="36" cy="62" rx="11" ry="14" fill="{a}"/>'
            '<ellipse cx="60" cy="62" rx="11" ry="14" fill="{a}"/><ellipse cx="84" cy="62" rx="11" ry="14" fill="{a}"/>',
    "tray": '<rect x="16" y="56" width="88" height="40" rx="6" fill="#ddd"/><path d="M26 66 C40 50 80 50 94 66 C80 88 40 88 26 66 Z" '
            'fill="{a}"/><path d="M40 64 C56 60 66 70 82 66" stroke="{b}" stroke-width="3" fill="none"/>',
    "links": '<rect x="14" y="52" width="34" height="20" rx="10" fill="{a}"/><rect x="44" y="56" width="34" height="20" rx="10" fill="{a}"/>'
             '<rect x="74" y="52" width="34" height="20" rx="10" fill="{a}"/><path d="M46 62 H48 M76 64 H78" stroke="{b}" stroke-width="4"/>',
    "fish": '<path d="M18 64 C40 36 80 40 92 64 C80 88 40 92 18 64 Z" fill="{a}"/><path d="M90 64 L108 48 V80 Z" fill="{a}"/>'
            '<circle cx="36" cy="60" r="4" fill="{b}"/>',
    "roll": '<rect x="26" y="34" width="68" height="70" rx="4" fill="{a}"/><ellipse cx="60" cy="34" rx="34" ry="10" fill="#eee"/>'
            '<ellipse cx="60" cy="34" rx="10" ry="4" fill="{b}"/>',
    "pump": '<rect x="38" y="44" width="44" height="62" rx="10" fill="{a}"/><rect x="54" y="26" width="12" height="20" fill="{b}"/>'
            '<path d="M54 28 H40 V34" stroke="{b}" stroke-width="6" fill="none"/>',
    "tube": '<path d="M20 52 H88 L100 60 L88 68 H20 Z" fill="{a}"/><rect x="100" y="55" width="10" height="10" rx="2" fill="{b}"/>'
            '<rect x="30" y="55" width="40" height="10" fill="{b}"/>',
    "pizza": '<circle cx="60" cy="64" r="40" fill="#e0b060"/><circle cx="60" cy="64" r="32" fill="{a}"/>'
             '<circle cx="46" cy="54" r="6" fill="{b}"/><circle cx="72" cy="58" r="6" fill="{b}"/><circle cx="58" cy="78" r="6" fill="{b}"/>',
    "cone": '<path d="M42 56 L60 108 L78 56 Z" fill="#d9a35b"/><circle cx="60" cy="50" r="20" fill="{a}"/><circle cx="66" cy="36" r="4" fill="{b}"/>',
}

# name: (shape, main colour, second colour)
PRODUCTS = {
    "Whole milk": ("carton", "#f2f2f2", "#2b6cb0"), "Semi-skimmed milk": ("carton", "#f2f2f2", "#38a169"),
    "Greek yoghurt": ("tub", "#ffffff", "#2c5282"), "Natural yoghurt": ("tub", "#ffffff", "#319795"),
    "Gouda cheese slices": ("block", "#f6c945", "#d69e2e"), "Aged Gouda": ("wedge", "#f0b429", "#b7791f"),
    "Butter": ("block", "#fbe7a1", "#c05621"), "Cream cheese": ("tub", "#fafafa", "#718096"),
    "Free-range eggs": ("eggs", "#e8c9a0", "#a0aec0"), "Wholemeal bread": ("loaf", "#a0672f", "#6b3f17"),
    "White bread": ("loaf", "#e9c48a", "#b7791f"), "Croissants": ("crescent", "#d99a3e", "#9c5b16"),
    "Rye crackers": ("box", "#c9a66b", "#7b4a12"), "Bagels": ("ring", "#d9a35b", "#fff"),
    "Bananas": ("bunch", "#f6d743", "#b7950b"), "Apples": ("round", "#d63a2f", "#5aa02c"), "Pears": ("round", "#b5c94c", "#5aa02c"),
    "Oranges": ("round", "#f28c28", "#4a8f2a"), "Tomatoes": ("round", "#e53e3e", "#38a169"),
    "Cherry tomatoes": ("pile", "#e53e3e", "#2f855a"), "Cucumber": ("long", "#2f855a", "#276749"),
    "Carrots": ("long", "#ed8936", "#48bb78"), "Onions": ("round", "#c58b4a", "#8a5a2b"), "Potatoes": ("pile", "#c9a26b", "#7b5a2e"),
    "Broccoli": ("leafy", "#2f855a", "#68a357"), "Spinach": ("leafy", "#276749", "#2f855a"), "Avocado": ("round", "#3f6b2a", "#7a4a1e"),
    "Lemons": ("round", "#f7e04b", "#5aa02c"), "Strawberries": ("pile", "#e02b3c", "#38a169"), "Blueberries": ("pile", "#434190", "#2a2a6a"),
    "Chicken breast": ("tray", "#f5c6b0", "#e8a48a"), "Minced beef": ("tray", "#b83a3a", "#e98b8b"), "Pork sausages": ("links", "#e09a8a", "#a0524a"),
    "Smoked salmon": ("tray", "#f28e5c", "#ffd2b8"), "Cod fillets": ("fish", "#e6e6e0", "#333"), "Tuna in water": ("can", "#2b6cb0", "#f6e05e"),
    "Spaghetti": ("bag", "#f6e05e", "#2b6cb0"), "Penne": ("bag", "#f6e05e", "#c53030"), "Basmati rice": ("bag", "#edf2f7", "#805ad5"),
    "Rolled oats": ("bag", "#e9d8a6", "#8b5e34"), "Muesli": ("box", "#d69e2e", "#9c4221"), "Cornflakes": ("box", "#f6ad55", "#c53030"),
    "Peanut butter": ("jar", "#b7793a", "#c53030"), "Strawberry jam": ("jar", "#c53030", "#f2f2f2"), "Honey": ("jar", "#ecb22e", "#744210"),
    "Olive oil": ("bottle", "#7c8c2a", "#2f4f2f"), "Sunflower oil": ("bottle", "#f6d743", "#d69e2e"),
    "Chopped tomatoes": ("can", "#c53030", "#f6e05e"), "Tomato ketchup": ("bottle", "#c53030", "#fafafa"),
    "Mayonnaise": ("jar", "#fdf6d8", "#2b6cb0"), "Red lentils": ("bag", "#e07a3f", "#744210"), "Chickpeas": ("can", "#d8b46a", "#2f855a"),
    "Kidney beans": ("can", "#8b2c2c", "#f2f2f2"), "Plain flour": ("bag", "#fafafa", "#2b6cb0"), "Granulated sugar": ("bag", "#fafafa", "#d53f8c"),
    "Sea salt": ("jar", "#e2e8f0", "#2b6cb0"), "Ground coffee": ("bag", "#5b3a1f", "#c53030"), "Coffee beans": ("bag", "#3b2412", "#d69e2e"),
    "Black tea": ("box", "#2d3748", "#c53030"), "Green tea": ("box", "#68a357", "#2f4f2f"), "Orange juice": ("carton", "#f6ad55", "#38a169"),
    "Apple juice": ("carton", "#f6e05e", "#c53030"), "Sparkling water": ("bottle", "#bee3f8", "#2b6cb0"), "Cola": ("bottle", "#3b1f12", "#c53030"),
    "Oat drink": ("carton", "#e9d8a6", "#2c5282"), "Dark chocolate": ("bar", "#4a2c1a", "#2d3748"), "Milk chocolate": ("bar", "#8b5a2b", "#805ad5"),
    "Salted crisps": ("bag", "#f6e05e", "#c53030"), "Salted peanuts": ("jar", "#c58b4a", "#2b6cb0"), "Digestive biscuits": ("tube", "#c9a66b", "#c53030"),
    "Frozen peas": ("bag", "#68d391", "#2b6cb0"), "Frozen pizza margherita": ("pizza", "#e53e3e", "#fafafa"),
    "Vanilla ice cream": ("cone", "#fdf3c4", "#7b4a12"), "Fish fingers": ("box", "#2b6cb0", "#f6ad55"),
    "Dishwasher tablets": ("box", "#3182ce", "#e2e8f0"), "Washing-up liquid": ("bottle", "#48bb78", "#f6e05e"),
    "Toilet paper": ("roll", "#ffffff", "#cbd5e0"), "Kitchen roll": ("roll", "#f7fafc", "#90cdf4"),
    "Laundry detergent": ("bottle", "#805ad5", "#f6e05e"), "Toothpaste": ("tube", "#e2e8f0", "#3182ce"),
    "Shampoo": ("bottle", "#d53f8c", "#fafafa"), "Hand soap": ("pump", "#81e6d9", "#2c7a7b"),
}


def file_name(name):
    """As make-catalog.py's image_path names it."""
    return name.lower().replace(" ", "-").replace("'", "") + ".svg"


def svg(name):
    shape, main, second = PRODUCTS[name]
    drawing = SHAPES[shape].replace("{a}", main).replace("{b}", second)
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 120" width="120" height="120" role="img">'
            f'<title>{name}</title><rect width="120" height="120" rx="12" fill="#f4f1ea"/>'
            '<ellipse cx="60" cy="110" rx="38" ry="5" fill="#000" opacity=".08"/>'
            f'{drawing}</svg>\n')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--catalog", default="Data/catalog.json")
    parser.add_argument("--output", default="deploy/web/img/products")
    args = parser.parse_args()
    with open(args.catalog, encoding="utf-8") as file:
        names = sorted({product["name"] for product in json.load(file)["products"]})
    missing = [name for name in names if name not in PRODUCTS]
    if missing:
        raise SystemExit(f"no drawing for: {', '.join(missing)} (add them to PRODUCTS)")
    os.makedirs(args.output, exist_ok=True)
    for name in names:
        with open(os.path.join(args.output, file_name(name)), "w", encoding="utf-8") as file:
            file.write(svg(name))
    print(f"{args.output}: {len(names)} product drawings")


if __name__ == "__main__":
    main()
