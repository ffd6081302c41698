import { isUniqueViolation } from '../../db/dialect.js';
import { fail } from '../../lib/errors.js';
import { listData } from '../../lib/pagination.js';
import { nowTimestamp } from '../../lib/time.js';
import { channelItems } from './items.js';
import * as repo from './repo.js';
const COLOR = /^#[0-9A-Fa-f]{6}$/;
const ITEM_TYPES = ['links', 'bio', 'qr'];
const ITEM_NAMES = { links: 'Link', bio: 'Bio page', qr: 'QR code' };
const toView = (row) => ({ ...row, starred: row.starred === 1 });
async function ownChannel(ctx, userId, id) {
    const row = await repo.findChannel(ctx.db, userId, id);
    if (!row)
        throw fail('not_found', 'Channel');
    return row;
}
export async function listChannels(ctx, userId, page) {
    const [total, rows] = await Promise.all([repo.countChannels(ctx.db, userId), repo.listChannels(ctx.db, userId, page)]);
    return listData(page, total, rows.map(toView));
}
export async function listItems(ctx, userId, channelId, page) {
    await ownChannel(ctx, userId, channelId);
    return channelItems(ctx, userId, channelId, page);
}
/** Checked changes from the input; absent fields stay absent. */
function changesOf(input) {
    const changes = {};
    if (input.name !== undefined) {
        changes.name = input.name.trim();
        if (!changes.name)
            throw fail('name_required', 'The channel name');
    }
    if (input.description !== undefined)
        changes.description = input.description.trim();
    if (input.color !== undefined) {
        changes.color = input.color.trim();
        if (changes.color && !COLOR.test(changes.color))
            throw fail('color_invalid');
    }
    if (input.starred !== undefined)
        changes.starred = input.starred ? 1 : 0;
    return changes;
}
/** Checks the name, runs the write, and turns a lost race on the unique name into the same 409. */
async function saving(ctx, userId, name, exceptId, write) {
    if (name !== undefined && (await repo.nameTaken(ctx.db, userId, name, exceptId)))
        throw fail('channel_name_taken');
    try {
        return await write();
    }
    catch (error) {
        if (isUniqueViolation(error))
            throw fail('channel_name_taken');
        throw error;
    }
}
export async function addChannel(ctx, userId, input) {
    const fields = { name: '', description: '', color: '', starred: 0, ...changesOf(input) };
    const id = await saving(ctx, userId, fields.name, 0, () => repo.insertChannel(ctx.db, { ...fields, user_id: userId, created_at: nowTimestamp() }));
    return toView(await ownChannel(ctx, userId, id));
}
export async function updateChannel(ctx, userId, id, input) {
    await ownChannel(ctx, userId, id);
    const changes = changesOf(input);
    await saving(ctx, userId, changes.name, id, async () => {
        await repo.updateChannel(ctx.db, id, changes);
        return id;
    });
    return toView(await ownChannel(ctx, userId, id));
}
export async function deleteChannel(ctx, userId, id) {
    await ownChannel(ctx, userId, id);
    await repo.deleteChannel(ctx.db, id);
}
export async function assignItem(ctx, userId, channelId, type, itemId) {
    if (!ITEM_TYPES.includes(type))
        throw fail('item_type_invalid');
    await ownChannel(ctx, userId, channelId);
    if (!(await repo.ownsItem(ctx.db, userId, type, itemId)))
        throw fail('not_found', ITEM_NAMES[type]);
    await repo.assignItem(ctx.db, channelId, type, itemId, nowTimestamp());
}
//# sourceMappingURL=service.js.map