import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/** One per cart: serializes the cart's operations and owns its expiry alarm (see the cart issue). */
export class CartTimer extends DurableObject<Env> {}
