// The product's name as people read it: "eCard", never "Ecard", in what the console's pages show (the navigation,
// each section's page and title, a widget's tabs). Identifiers and addresses (`/ecards`, `saveCampaignEcards`) are
// not read by people: only the pages' text and titles are checked.
import { expect } from 'chai';
import { NAV } from '../../api/console/kit/render.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { ownerOnPages } from '../helpers/console.ts';
import { testStack } from '../helpers/stack.ts';

/** What a reader sees of a page: its title and the text between its tags (scripts, styles and attributes left out). */
const readable = (html: string) =>
  html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ');

describe('console pages: "eCard" as people read it', function () {
  this.timeout(60_000);

  it('no page of the navigation, nor a widget’s tabs, says "Ecard"', async () => {
    const stack = await testStack();
    const { account, browser } = await ownerOnPages(stack, 'pro');
    const widget = await insertWidget(stack.models, account.accountId, { name: 'Thanks' });
    await insertEcard(stack.models, account.accountId, widget.id, { name: 'Thank you card' });
    const paths = new Set(NAV.flatMap((item) => [item.href, ...(item.children ?? []).map((c) => c.href.replace(/#.*$/, ''))]));
    for (const tab of ['ecards', 'customize', 'settings', 'share', 'stats']) paths.add(`/v2/console/widgets/${widget.id}/${tab}`);
    for (const path of paths) {
      const res = await browser.get(path);
      expect(res.status, path).to.equal(200);
      const text = readable(await res.text());
      expect(text, path).to.include('eCards');
      expect(text.match(/\bEcards?\b/g), path).to.equal(null);
    }
  });
});
