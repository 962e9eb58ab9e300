// The loader as written per widget: settings that cannot break out of its source.
import { Script } from 'node:vm';
import { expect } from 'chai';
import { loaderScript } from '../../services/widgets/public/embed-script.ts';

describe('embed scripts', function () {
  it("writes the loader's settings as inert data, whatever characters they hold", function () {
    const title = `Cards </script><script>alert(1)</script> \u2028 "quoted" 'single'`;
    const script = loaderScript({ origin: 'https://cards.example', vanity: 'Ab1', anchor: 'cardsvc_widget_Ab1', src: 'https://cards.example/w/Ab1', title });
    expect(script).to.not.include('</script>');
    expect(script).to.not.include('\u2028');
    // Run on a page that has no anchor: the script compiles, reads its settings, looks for its anchor and stops.
    const seen: unknown[] = [];
    const window: Record<string, unknown> = {};
    const document = { readyState: 'complete', getElementById: (id: string) => (seen.push(id), null) };
    new Script(script).runInNewContext({ window, document });
    expect(seen).to.deep.equal(['cardsvc_widget_Ab1']);
    // Not taken: the same loader later on the page (its anchor there by then) may still start.
    expect(window.__cardsvcEmbeds).to.deep.equal({ cardsvc_widget_Ab1: false });
  });
});
