// The campaign pages' routes in one place: the wizard's (its fixed /campaigns/new first) and the list and
// campaign page's (with the moves).
import type { AnyRoute } from '../../http/route.ts';
import { campaignLaunchRoutes } from './launch.ts';
import { campaignRecipientRoutes } from './recipients.ts';
import { campaignWizardRoutes as detailsAndEcards } from './wizard.ts';
import { campaignPageRoutes as listAndPage } from './pages.ts';

export const campaignWizardRoutes: AnyRoute[] = [...detailsAndEcards, ...campaignRecipientRoutes, ...campaignLaunchRoutes];
export const campaignPageRoutes: AnyRoute[] = listAndPage;
