// The console home: the last 30 days (sends, opens, open rate: a uPlot chart drawn by web/console/home-chart.js
// over the table of the same figures, which is what works without JavaScript), the top eCards, what goes out in the
// next 7 days, quota and seats, then the section cards: every section of the navigation but Home, with a line on
// what it is for and, where the home reads one cheaply, how many the account has.
import type { Account } from '../../../models/Account.ts';
import { accountActivity, type Figures } from '../../../services/console/activity.ts';
import { consoleOverview, type ConsoleOverview } from '../../../services/console/overview.ts';
import { upcoming } from '../../../services/console/upcoming.ts';
import type { ServiceContext } from '../../../services/context.ts';
import type { PageData } from '../kit/render.ts';
import { navFor } from '../kit/render.ts';
import type { Role } from '../../../services/team/roles.ts';

const ABOUT: Record<string, string> = {
  Send: 'Send one card now, later, or as a share link.',
  Widgets: 'The card galleries you embed on your sites, and how they look.',
  eCards: 'The cards people send: their design, message and schedule.',
  Brands: 'Logo, colours and footer your cards and emails carry.',
  Campaigns: 'One card to many people, now or at a time you pick.',
  Automations: 'Birthdays, anniversaries and other dates, sent on their own.',
  Directory: 'Your team: members, departments, custom fields, suppressions and imports.',
  Rewards: 'Gift cards with eCards: codes, spend rules and orders.',
  Developers: 'API keys, confirmation tokens and webhooks.',
  Settings: 'Time and quiet hours, the outbox, your password and your sessions.',
};

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The sections `role` may open, each with what it holds. */
export function homeSections(overview: ConsoleOverview, role: Role) {
  const counts: Record<string, string> = {
    Widgets: plural(overview.widgets, 'widget', 'widgets'),
    eCards: plural(overview.ecards, 'eCard', 'eCards'),
    Brands: plural(overview.brands, 'brand', 'brands'),
  };
  return navFor('', role).filter((item) => item.href !== '/v2/console/').map((item) => ({ href: item.href, label: item.label, about: ABOUT[item.label] ?? '', count: counts[item.label] }));
}

/** An open rate as the page shows it: one decimal, or a dash without sends. */
export const percent = (rate: number | null) => (rate === null ? '–' : `${(Math.round(rate * 1000) / 10).toFixed(1)} %`);

/** A day as a short label (Fri 27 Nov), UTC like every figure of the page. */
const dayLabel = (date: string) => new Date(`${date}T00:00:00.000Z`).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

const shown = (f: Figures) => ({ sends: f.sends, opens: f.opens, rate: percent(f.rate), rateValue: f.rate === null ? '' : f.rate.toFixed(4) });

export async function homePage(services: ServiceContext, account: Account, role: Role): Promise<PageData> {
  const [overview, activity, next] = await Promise.all([consoleOverview(services, account), accountActivity(services, account.id), upcoming(services, account.id)]);
  return {
    title: 'Home',
    view: 'home',
    styles: ['uplot.css', 'home.css'],
    scripts: ['home-chart.js'],
    overview,
    seatsFull: overview.seats.used >= overview.seats.limit,
    activity: {
      from: activity.from,
      to: activity.to,
      totals: shown(activity.totals),
      days: activity.days.map((d) => ({ date: d.date, label: dayLabel(d.date), ...shown(d) })),
      any: activity.totals.sends > 0,
    },
    top: activity.top.map((e) => ({ ...shown(e), id: e.id, name: e.name ?? 'A deleted eCard', href: e.name === null ? undefined : `/v2/console/ecards/${e.id}` })),
    next: {
      until: next.until,
      sends: next.sends.listed.map((s) => ({ ...s, others: s.others > 0 ? plural(s.others, 'other', 'others') : undefined, href: `/v2/console/sends/${s.send_id}` })),
      moreSends: next.sends.total > next.sends.listed.length ? next.sends.total - next.sends.listed.length : 0,
      sendsTotal: next.sends.total,
      campaigns: next.campaigns.listed.map((c) => ({
        ...c,
        // A campaign in each recipient's zone starts with its first wave.
        timezone: c.timezone === 'recipient' ? 'first of its waves, in each recipient’s zone' : c.timezone,
        recipients: plural(c.recipients, 'recipient', 'recipients'),
        href: `/v2/console/campaigns/${c.id}`,
      })),
      moreCampaigns: next.campaigns.total > next.campaigns.listed.length ? next.campaigns.total - next.campaigns.listed.length : 0,
      campaignsTotal: next.campaigns.total,
      automationCards: plural(next.automations.cards, 'card', 'cards'),
      automations: next.automations.automations > 0 ? plural(next.automations.automations, 'automation', 'automations') : undefined,
      automationsLink: '/v2/console/automations',
    },
    sections: homeSections(overview, role),
  };
}
