// The console's widget pages: the list, create, copy, and a widget's tabs Customize, Preview & Share, Settings,
// Stats (the eCards tab is widget-ecards.ts), with the Customize tab's preview.
import type { AnyRoute } from '../../http/route.ts';
import { widgetCustomizeRoutes } from './widget-customize.ts';
import { widgetListRoutes } from './widget-list.ts';
import { widgetPreviewRoutes } from './widget-preview.ts';
import { widgetSettingsRoutes } from './widget-settings.ts';
import { widgetShareRoutes } from './widget-share.ts';
import { widgetStatsRoutes } from './widget-stats.ts';

export const widgetPageRoutes: AnyRoute[] = [...widgetListRoutes, ...widgetCustomizeRoutes, ...widgetPreviewRoutes, ...widgetShareRoutes, ...widgetSettingsRoutes, ...widgetStatsRoutes];
