// Automations as they are shown (findOne, list items, save and toggle answers): each stored configuration with the
// next firings of the enabled ones, read here so the presenter only maps.
import type { ServiceContext } from '../context.ts';
import type { AutomationConfig } from './config.ts';
import { nextFirings, type PreviewFiring } from './preview.ts';

export interface AutomationView {
  config: AutomationConfig;
  nextFirings: PreviewFiring[];
}

export async function automationViews(ctx: ServiceContext, configs: readonly AutomationConfig[], showContact: boolean): Promise<AutomationView[]> {
  const firings = await nextFirings(ctx, configs, showContact);
  return configs.map((config) => ({ config, nextFirings: firings.get(config.row.id) ?? [] }));
}

export async function automationView(ctx: ServiceContext, config: AutomationConfig, showContact: boolean): Promise<AutomationView> {
  return (await automationViews(ctx, [config], showContact))[0]!;
}
