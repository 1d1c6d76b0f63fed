// Translation settings actions: create, list, read, replace, delete.
import { callerOf } from "@docshelf/access";
import { NotFoundError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { newId } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { TranslationDoc } from "./models";
import { presentTranslation } from "./present";
import type { Ctx, OrgsActions, OrgsService } from "./service-types";

const title = { type: "string", min: 1, max: 100, trim: true } as const;
/** BCP 47-like codes ("en", "pt-br", "zh-Hant"); GitBook does not publish the set. */
const languages = {
  type: "array",
  optional: true,
  max: 100,
  unique: true,
  items: { type: "string", pattern: /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i, max: 35, messages: { stringPattern: "The 'languages' field must hold language codes such as en or pt-br." } },
} as const;

type Ref = { organizationId: string; translationSettingsId: string };
const ref = { organizationId: idRule, translationSettingsId: idRule };

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Translation settings ${id} were not found.`);
}

export const translationActions: OrgsActions = {
  listTranslations: {
    params: { organizationId: idRule, ...listParams },
    async handler(this: OrgsService, ctx: Ctx<{ organizationId: string; page?: string; limit?: number }>) {
      const { member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireFullMember(member);
      const publicUrl = this.publicUrl();
      return listPage(this.translations, { organizationId: ctx.params.organizationId }, { ...ctx.params, sort: [["createdAt", 1]] }, (docs) =>
        docs.map((doc) => presentTranslation(doc, member.role, publicUrl)),
      );
    },
  },

  createTranslation: {
    params: { organizationId: idRule, title, languages },
    async handler(this: OrgsService, ctx: Ctx<{ organizationId: string; title: string; languages?: string[] }>) {
      const { org, member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      const now = new Date().toISOString();
      const doc: TranslationDoc = { id: newId(), organizationId: org.id, title: ctx.params.title, languages: ctx.params.languages ?? [], createdAt: now, updatedAt: now };
      await this.translations.insert(doc);
      ctx.meta.$statusCode = 201;
      return presentTranslation(doc, member.role, this.publicUrl());
    },
  },

  getTranslation: {
    params: ref,
    async handler(this: OrgsService, ctx: Ctx<Ref>) {
      const { member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireFullMember(member);
      const doc = await this.translations.findOne({ id: ctx.params.translationSettingsId, organizationId: ctx.params.organizationId });
      if (!doc) throw notFound(ctx.params.translationSettingsId);
      return presentTranslation(doc, member.role, this.publicUrl());
    },
  },

  updateTranslation: {
    params: { ...ref, title, languages },
    async handler(this: OrgsService, ctx: Ctx<Ref & { title: string; languages?: string[] }>) {
      const { member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireFullMember(member);
      const filter = { id: ctx.params.translationSettingsId, organizationId: ctx.params.organizationId };
      if (!(await this.translations.findOne(filter))) throw notFound(ctx.params.translationSettingsId);
      this.requireAdmin(member);
      const set: Partial<TranslationDoc> = { title: ctx.params.title, updatedAt: new Date().toISOString() };
      if (ctx.params.languages !== undefined) set.languages = ctx.params.languages;
      const updated = await this.translations.updateOne(filter, { $set: set });
      if (!updated) throw notFound(ctx.params.translationSettingsId);
      return presentTranslation(updated, member.role, this.publicUrl());
    },
  },

  deleteTranslation: {
    params: ref,
    async handler(this: OrgsService, ctx: Ctx<Ref>) {
      const { member } = await this.loadForMember(ctx.params.organizationId, callerOf(ctx));
      this.requireAdmin(member);
      await this.translations.deleteOne({ id: ctx.params.translationSettingsId, organizationId: ctx.params.organizationId });
      ctx.meta.$statusCode = 204;
      return null;
    },
  },
};
