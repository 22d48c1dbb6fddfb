/** `spillway key rotate`: re-encrypt credential blobs under a new key, all or nothing. */
import { withEngine, type Command } from "../command";

export const keyCommand: Command = {
  usage: "rotate",
  summary: "Rotate the encryption key of credential blobs (re-encrypts them; nothing changes on failure).",
  run: async (ctx) => {
    if (ctx.positionals[0] !== "rotate") {
      ctx.io.err('spillway key: the only key command is "rotate": spillway key rotate');
      return 2;
    }
    return withEngine(ctx, (engine) => {
      const n = engine.rotateKey();
      ctx.io.out(`key rotated: ${n} encrypted blob${n === 1 ? "" : "s"} re-encrypted under the new key`);
      return 0;
    });
  },
};
