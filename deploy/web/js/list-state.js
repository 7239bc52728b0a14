// What a shopping list looks like to the person editing it: the list as Commons last
// answered it, with the edits Commons has not confirmed yet laid over it (queued ones, and a
// sent batch until a reload shows it). Pure: no requests, no page.

/**
 * The list to show: `server` (GET /v1/lists/{id}) with `pending` edits applied on top, each
 * item changed or added by a queued edit marked `pending: true`. `sent` is `{ commands, version }` of a batch
 * Commons took but `server` may not show yet (it is laid over only while `server.version` is
 * older than the batch's).
 */
export function shownList(server, pending, sent) {
  const items = server.items.map((item) => ({ ...item, pending: false }));
  let name = server.name;
  // A sent batch is laid over without the "not sent yet" mark: Commons has it.
  const overlay = [
    ...(sent && server.version < sent.version ? sent.commands.map((command) => [command, false]) : []),
    ...pending.map((command) => [command, true]),
  ];
  for (const [command, waiting] of overlay) {
    const index = items.findIndex((item) => item.id === command.itemId);
    const item = items[index];
    switch (command.type) {
      case 'addItem':
        if (!item) {
          items.push({
            id: command.itemId, productId: command.productId, product: command.shown?.product, text: command.text,
            quantity: command.quantity, checked: false, note: command.note, addedBy: command.shown?.addedBy, pending: waiting,
          });
        }
        break;
      case 'changeQuantity':
        if (item) Object.assign(item, { quantity: clamp(item.quantity + command.delta), pending: item.pending || waiting });
        break;
      case 'check':
      case 'uncheck':
        if (item) Object.assign(item, { checked: command.type === 'check', pending: item.pending || waiting });
        break;
      case 'removeItem':
        if (item) items.splice(index, 1);
        break;
      case 'rename':
        name = command.name;
        break;
      default:
        break;
    }
  }
  return { ...server, name, items, pendingCount: pending.length };
}

function clamp(quantity) { return Math.min(999, Math.max(1, quantity)); }

/** What an edit is about, in a few words, for a sentence saying it was refused. */
export function editLabel(command, server) {
  const item = server?.items.find((candidate) => candidate.id === command.itemId);
  const what = command.text || command.shown?.product?.name || item?.text || item?.product?.name || 'an item';
  switch (command.type) {
    case 'addItem': return `Adding ${what}`;
    case 'changeQuantity': return `Changing how many ${what}`;
    case 'check': return `Ticking off ${what}`;
    case 'uncheck': return `Putting ${what} back on the list`;
    case 'removeItem': return `Removing ${what}`;
    case 'rename': return `Renaming the list to “${command.name}”`;
    default: return 'An edit';
  }
}

/** The name people read for an item: the product's, or the text they typed. */
export function itemName(item) {
  return item.product?.name || item.text || 'Item';
}
