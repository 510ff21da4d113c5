import { describe, expect, it } from "vitest";
import { type ApiTestTarget, createApiClient, createTenant } from "./api-target.js";

/**
 * `PATCH /api/campaigns/:id` over real HTTP: a rename keeps the id, a taken name is 409 as on
 * create (archived campaigns' names included), an archived campaign can be renamed, another
 * organization's campaign is 404, bad bodies are 400 and change nothing.
 */
export function campaignRenameContract(target: () => ApiTestTarget): void {
  describe("campaign rename", () => {
    it("renames a campaign, archived ones too, refusing a taken name and another organization's campaign", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      const other = await createTenant(mailpulse, "Other");
      const spring = (await call("POST", "/api/campaigns", { key, json: { name: "Spring" } })).body;
      const autumn = (await call("POST", "/api/campaigns", { key, json: { name: "Autumn" } })).body;

      const renamed = await call("PATCH", `/api/campaigns/${spring.id}`, {
        key,
        json: { name: " Spring 2026 " },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ id: spring.id, name: "Spring 2026", createdAt: spring.createdAt });
      expect((await call("GET", `/api/campaigns/${spring.id}`, { key })).body.name).toBe("Spring 2026");
      // Its own name again changes nothing.
      expect(
        (await call("PATCH", `/api/campaigns/${spring.id}`, { key, json: { name: "Spring 2026" } })).status,
      ).toBe(200);

      const taken = await call("PATCH", `/api/campaigns/${autumn.id}`, {
        key,
        json: { name: "Spring 2026" },
      });
      expect(taken).toMatchObject({
        status: 409,
        body: { error: 'A campaign named "Spring 2026" already exists' },
      });

      // An archived campaign keeps its name against others, and can itself be renamed.
      expect((await call("POST", `/api/campaigns/${autumn.id}/archive`, { key })).status).toBe(200);
      expect(
        (await call("PATCH", `/api/campaigns/${spring.id}`, { key, json: { name: "Autumn" } })).status,
      ).toBe(409);
      const archivedRenamed = await call("PATCH", `/api/campaigns/${autumn.id}`, {
        key,
        json: { name: "Autumn 2025" },
      });
      expect(archivedRenamed.status).toBe(200);
      expect((await call("POST", "/api/campaigns", { key, json: { name: "Autumn" } })).status).toBe(201);

      // Another organization can neither rename nor see this one's campaign; it may use the name.
      expect(
        (await call("PATCH", `/api/campaigns/${spring.id}`, { key: other.key, json: { name: "Mine" } }))
          .status,
      ).toBe(404);
      expect(
        (await call("POST", "/api/campaigns", { key: other.key, json: { name: "Spring 2026" } })).status,
      ).toBe(201);
      expect((await call("GET", `/api/campaigns/${spring.id}`, { key })).body.name).toBe("Spring 2026");
      expect((await call("PATCH", "/api/campaigns/nope", { key, json: { name: "X" } })).status).toBe(404);
    });

    it("refuses a bad body with 400 and changes nothing", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      const spring = (await call("POST", "/api/campaigns", { key, json: { name: "Spring" } })).body;
      const cases: [unknown, string][] = [
        [{}, '"name" is required'],
        [{ name: "   " }, '"name": must not be empty'],
        [{ name: "x".repeat(201) }, '"name": must be at most 200 characters'],
        [{ name: "Summer", archived: true }, 'unknown field "archived"'],
      ];
      for (const [json, message] of cases) {
        const answer = await call("PATCH", `/api/campaigns/${spring.id}`, { key, json });
        expect(answer.status, JSON.stringify(json)).toBe(400);
        expect(answer.body.error).toContain(message);
      }
      expect((await call("PATCH", `/api/campaigns/${spring.id}`, { key })).status).toBe(400);
      expect((await call("GET", `/api/campaigns/${spring.id}`, { key })).body.name).toBe("Spring");
    });
  });
}
