// Renders the gateway's merged OpenAPI document (../openapi.json, or ./openapi.json when the
// page is opened from a folder) as one readable page, without any library or network access
// beyond the document itself.
"use strict";

const METHODS = ["get", "post", "put", "patch", "delete"];

// The document being shown, for resolving its "#/components/…" references.
let shown = null;

// `value` itself, or what its "$ref" points to within the document.
function resolve(value) {
  if (!value || typeof value.$ref !== "string" || !value.$ref.startsWith("#/")) return value;
  return value.$ref.slice(2).split("/").reduce((node, key) => (node ? node[key] : undefined), shown) || value;
}

async function loadDocument() {
  for (const url of ["../openapi.json", "openapi.json"]) {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (response.ok) return await response.json();
    } catch (error) {
      // Try the next place.
    }
  }
  throw new Error("The API document could not be loaded.");
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A schema's type without null: "string" for both "string" and ["string", "null"].
function baseType(schema) {
  const type = schema && schema.type;
  return Array.isArray(type) ? type.filter((t) => t !== "null")[0] : type;
}

// A schema in a few words: its type and the bounds the service enforces.
function describe(schema) {
  if (schema && schema.anyOf) return schema.anyOf.filter((s) => s.type !== "null").map(describe).join(" or ") + " or null";
  if (schema && Array.isArray(schema.type) && schema.type.includes("null")) {
    return describe(Object.assign({}, schema, { type: baseType(schema), enum: schema.enum && schema.enum.filter((v) => v !== null) })) + " or null";
  }
  if (schema && schema.additionalProperties) return "object of " + describe(schema.additionalProperties) + " by key";
  if (schema && !schema.type && !schema.$ref && !schema.enum) return "any JSON value";
  if (!schema) return "any";
  if (schema.$ref) return schema.$ref.split("/").pop();
  const bounds = [];
  if (schema.enum) return "one of " + schema.enum.join(", ");
  if (schema.format) bounds.push(schema.format);
  if (schema.pattern) bounds.push("matching " + schema.pattern);
  const characters = (n) => n + (n === 1 ? " character" : " characters");
  if (schema.minLength !== undefined) bounds.push("at least " + characters(schema.minLength));
  if (schema.maxLength !== undefined) bounds.push("at most " + characters(schema.maxLength));
  if (schema.minimum !== undefined && schema.maximum !== undefined) bounds.push(schema.minimum + " to " + schema.maximum);
  if (schema.maxItems !== undefined) bounds.push("at most " + schema.maxItems + " items");
  let type = schema.type || "object";
  if (type === "array") type = "array of " + describe(schema.items);
  return bounds.length ? type + " (" + bounds.join(", ") + ")" : type;
}

// A shared schema ("$ref") or a nullable one ("anyOf" with null) as the object it describes.
function unwrap(schema) {
  const inner = schema && schema.anyOf ? schema.anyOf.find((s) => s.type !== "null") : schema;
  return resolve(inner);
}

function fields(given) {
  const schema = unwrap(given);
  if (!schema || baseType(schema) !== "object" || !schema.properties) return element("p", {}, element("code", {}, describe(given)));
  const required = new Set(schema.required || []);
  const names = Object.keys(schema.properties).sort();
  return element("ul", { class: "fields" }, names.map((name) => {
    const property = schema.properties[name];
    const inner = unwrap(property);
    const items = inner && inner.items ? unwrap(inner.items) : null;
    const values = inner && inner.additionalProperties ? unwrap(inner.additionalProperties) : null;
    const nested = baseType(inner) === "object" && inner.properties ? fields(inner)
      : baseType(inner) === "array" && items && items.properties ? fields(items)
      : values && values.properties ? fields(values) : null;
    return element("li", {}, element("code", {}, name), " ", describe(property),
      required.has(name) ? element("span", { class: "required" }, "required") : null, nested);
  }));
}

function parametersTable(parameters) {
  return element("table", {},
    element("thead", {}, element("tr", {}, ["name", "in", "type", ""].map((title) => element("th", {}, title)))),
    element("tbody", {}, parameters.map(resolve).map((parameter) => element("tr", {},
      element("td", {}, element("code", {}, parameter.name)),
      element("td", {}, parameter.in),
      element("td", {}, describe(parameter.schema)),
      element("td", {}, parameter.required ? element("span", { class: "required" }, "required") : "")))));
}

// Each status with its description; a JSON answer also with its fields.
function responsesTable(responses) {
  const statuses = Object.keys(responses).sort((a, b) => (a === "default") - (b === "default") || a.localeCompare(b));
  return element("table", {},
    element("tbody", {}, statuses.map((status) => {
      // A shared answer ("$ref") may carry its own description beside the reference.
      const response = { ...resolve(responses[status]), description: responses[status].description || resolve(responses[status]).description };
      const content = response.content || {};
      const json = content["application/json"];
      return element("tr", {},
        element("td", {}, element("code", {}, status)),
        element("td", {}, response.description || "",
          json && json.schema ? fields(json.schema) : null,
          content["application/problem+json"] ? element("span", { class: "problem" }, " (problem document)") : null));
    })));
}

function operationCard(path, method, operation) {
  const body = operation.requestBody && operation.requestBody.content && operation.requestBody.content["application/json"];
  const card = element("details", { class: "operation", "data-search": [method, path, operation.summary, (operation.tags || []).join(" ")].join(" ").toLowerCase() },
    element("summary", {},
      element("span", { class: "method " + method }, method.toUpperCase()),
      element("span", { class: "path" }, path),
      element("span", { class: "summary" }, operation.summary || ""),
      operation.security ? element("span", { class: "lock", title: "Needs a bearer access token" }, "signed in") : null),
    element("div", { class: "body" },
      operation.parameters && operation.parameters.length ? [element("h3", {}, "Parameters"), parametersTable(operation.parameters)] : null,
      body ? [element("h3", {}, "Request body (JSON)"), fields(body.schema),
        body.example !== undefined ? element("pre", { class: "example" }, JSON.stringify(body.example, null, 2)) : null] : null,
      element("h3", {}, "Responses"), responsesTable(operation.responses || {})));
  return card;
}

function render(api) {
  shown = api;
  const intro = document.getElementById("intro");
  intro.textContent = (api.info && api.info.description) || "";
  const nav = document.getElementById("services");
  const main = document.getElementById("operations");
  const byTag = new Map((api.tags || []).map((tag) => [tag.name, { tag, operations: [] }]));
  for (const path of Object.keys(api.paths).sort()) {
    for (const method of METHODS) {
      const operation = api.paths[path][method];
      if (!operation) continue;
      const name = (operation.tags && operation.tags[0]) || "other";
      if (!byTag.has(name)) byTag.set(name, { tag: { name }, operations: [] });
      byTag.get(name).operations.push(operationCard(path, method, operation));
    }
  }
  for (const { tag, operations } of byTag.values()) {
    const id = "service-" + tag.name;
    nav.append(element("a", { href: "#" + id }, tag.name, element("span", { class: "count" }, operations.length)));
    main.append(element("section", { class: "service", id },
      element("h2", {}, tag.name, tag.description ? element("small", {}, tag.description) : null), operations));
  }
  document.getElementById("filter").addEventListener("input", (event) => {
    const words = event.target.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const card of main.querySelectorAll("details.operation")) {
      card.hidden = !words.every((word) => card.dataset.search.includes(word));
    }
  });
  document.body.dataset.operations = main.querySelectorAll("details.operation").length;
}

loadDocument().then(render).catch((error) => {
  const intro = document.getElementById("intro");
  intro.textContent = error.message;
  intro.className = "error";
  document.body.dataset.operations = "error";
});
