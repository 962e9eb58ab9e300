// Area hooks: what an area does when another changes something it depends on. Each area exports its hooks from
// `services/<area>/hooks.ts`; the composition root (app/services.ts) lists the areas once, in order, and gives
// use cases the composed result as `ctx.hooks`. An area that changes something calls `ctx.hooks`, never another
// area's internals: deleting eCards or widgets (services/ecards/records.ts, services/widgets/admin/widgets.ts) asks `usage` and calls
// `ecardsRemoved`; erasing a member (services/directory/members.ts) calls `memberErased`.
import type { Transaction } from 'sequelize';
import type { BackgroundPass } from '../lib/background.ts';
import type { UsageCheck } from './usage.ts';

/** eCards about to be deleted: these eCards, or all the eCards of these widgets (the widgets go too). */
export type RemovedEcards = { ecardIds: number[] } | { widgetIds: number[] };

/** A member about to be erased from the directory. */
export interface ErasedMember {
  id: number;
  email: string;
}

/** An address erased from an account that is not a member of its directory (a stranger: a widget's sender, a recipient). */
export interface ErasedAddress {
  /** Lower-cased. */
  email: string;
}

/** One area's reaction to one change, made before the change's transaction begins. */
export interface Reaction<Change> {
  /** In the change's transaction (which holds the account's lock), before the changed rows are destroyed. */
  inTransaction(change: Change, transaction: Transaction): Promise<void>;
  /** After the change committed: work that must not run in its transaction (Temporal Schedules). */
  afterCommit?(): Promise<void>;
}

/** What one area registers with the root (each part optional). */
export interface AreaHooks {
  /** For reading: "sends", "campaigns", ... */
  area: string;
  /** Counts how many of this area's things use each eCard or widget ("in use" needs a token to delete). */
  usage?: UsageCheck;
  /** eCards or widgets of the account are being deleted (everything referring to them must let go). */
  ecardsRemoved?(accountId: number): Reaction<RemovedEcards>;
  /** A member of the account is being erased (the area drops or redacts what it holds about it). */
  memberErased?(accountId: number): Reaction<ErasedMember>;
  /** An address that is no member is being erased from the account (the area drops or blanks every mention of it). */
  addressErased?(accountId: number): Reaction<ErasedAddress>;
  /** The area's background passes: batches of conditional claims, so any number of workers can run them. */
  background?: readonly BackgroundPass[];
}

/** The hooks of every area, composed: what `ctx.hooks` holds. */
export interface Hooks {
  /** Every area's usage check, in the areas' order. */
  usage: readonly UsageCheck[];
  /** Every area's reaction to deleting eCards, run in the areas' order. */
  ecardsRemoved(accountId: number): Required<Reaction<RemovedEcards>>;
  /** Every area's reaction to erasing a member, run in the areas' order. */
  memberErased(accountId: number): Required<Reaction<ErasedMember>>;
  /** Every area's reaction to erasing a stranger's address, run in the areas' order. */
  addressErased(accountId: number): Required<Reaction<ErasedAddress>>;
}

function composed<Change>(reactions: Array<Reaction<Change>>): Required<Reaction<Change>> {
  return {
    async inTransaction(change, transaction) {
      for (const reaction of reactions) await reaction.inTransaction(change, transaction);
    },
    async afterCommit() {
      for (const reaction of reactions) await reaction.afterCommit?.();
    },
  };
}

/** The areas' hooks as one: each change reaches every area that registered for it, in the order listed. */
export function composeHooks(areas: readonly AreaHooks[]): Hooks {
  return {
    usage: areas.flatMap((a) => (a.usage ? [a.usage] : [])),
    ecardsRemoved: (accountId) => composed(areas.flatMap((a) => (a.ecardsRemoved ? [a.ecardsRemoved(accountId)] : []))),
    memberErased: (accountId) => composed(areas.flatMap((a) => (a.memberErased ? [a.memberErased(accountId)] : []))),
    addressErased: (accountId) => composed(areas.flatMap((a) => (a.addressErased ? [a.addressErased(accountId)] : []))),
  };
}

/** Every area's background passes, in the areas' order. */
export const backgroundPassesOf = (areas: readonly AreaHooks[]): BackgroundPass[] => areas.flatMap((a) => a.background ?? []);
