import type { AlertRules } from '../../../validation/alert-rules.js';
import { Model, type RelationMappings } from 'objection';

export class PlatformTextModel extends Model {
  static override tableName = 'platform_texts';
  static override idColumn = ['platform_id', 'language_id'];
  platform_id!: number;
  language_id!: number;
  name!: string;
  description!: string;
}

export class HowItWorksModel extends Model {
  static override tableName = 'platform_how_it_works';
  id!: number;
  platform_id!: number;
  language_id!: number;
  position!: number;
  text!: string;
}

export class FaqModel extends Model {
  static override tableName = 'platform_faq';
  id!: number;
  platform_id!: number;
  language_id!: number;
  position!: number;
  question!: string;
  answer!: string;
}

export class PlatformDurationModel extends Model {
  static override tableName = 'platform_durations';
  static override idColumn = ['platform_id', 'duration_id'];
  platform_id!: number;
  duration_id!: number;
  is_enabled!: boolean;
  /** This platform's name for the duration; null: the shared one (from the months). */
  name_en!: string | null;
  name_ko!: string | null;
  months?: number; // joined from durations
}

export class PlatformPlanTypeModel extends Model {
  static override tableName = 'platform_plan_types';
  static override idColumn = ['platform_id', 'plan_type_id'];
  platform_id!: number;
  plan_type_id!: number;
  is_enabled!: boolean;
  position!: number;
  /** This platform's name for the type; null: the shared one (plan_type_texts). */
  name_en!: string | null;
  name_ko!: string | null;
  name?: string; // joined from plan_type_texts in the requested language
}

export class PriceModel extends Model {
  static override tableName = 'platform_prices';
  static override idColumn = ['platform_id', 'duration_id', 'plan_type_id', 'currency'];
  platform_id!: number;
  duration_id!: number;
  plan_type_id!: number;
  currency!: string;
  price_minor!: number;
  sale_price_minor!: number;
}

export class PlatformModel extends Model {
  static override tableName = 'platforms';
  id!: number;
  slug!: string;
  category!: number;
  logo_base!: string;
  logo_carousel!: string;
  color_one!: string;
  color_two!: string;
  slots_count!: number;
  /** Account-alert rules (validation/alert-rules.ts), jsonb. */
  alert_rules?: AlertRules;
  needs_invitation!: boolean;
  max_quantity!: number;
  is_enabled!: boolean;
  /** Every active account broken since then (issue 33): the storefront shows it, checkout refuses it. */
  off_sale_since?: Date | null;
  sort_order!: number;
  /** Moved by every save through the catalog editor (its version check). */
  version!: number;
  updated_at!: Date;
  texts?: PlatformTextModel[];
  howItWorks?: HowItWorksModel[];
  faq?: FaqModel[];
  durations?: PlatformDurationModel[];
  planTypes?: PlatformPlanTypeModel[];
  prices?: PriceModel[];

  static override relationMappings = (): RelationMappings => ({
    texts: { relation: Model.HasManyRelation, modelClass: PlatformTextModel, join: { from: 'platforms.id', to: 'platform_texts.platform_id' } },
    howItWorks: { relation: Model.HasManyRelation, modelClass: HowItWorksModel, join: { from: 'platforms.id', to: 'platform_how_it_works.platform_id' } },
    faq: { relation: Model.HasManyRelation, modelClass: FaqModel, join: { from: 'platforms.id', to: 'platform_faq.platform_id' } },
    durations: { relation: Model.HasManyRelation, modelClass: PlatformDurationModel, join: { from: 'platforms.id', to: 'platform_durations.platform_id' } },
    planTypes: { relation: Model.HasManyRelation, modelClass: PlatformPlanTypeModel, join: { from: 'platforms.id', to: 'platform_plan_types.platform_id' } },
    prices: { relation: Model.HasManyRelation, modelClass: PriceModel, join: { from: 'platforms.id', to: 'platform_prices.platform_id' } },
  });
}
