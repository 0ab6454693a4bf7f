/**
 * The checkout steps: everything after the calendar (room and party, extras, guests, cart,
 * checkout, confirmation), their styles and the controllers of their concerns. One chunk,
 * loaded on demand (load-checkout-steps.ts), so widget.js carries only what the first screen
 * needs. Nothing imports this module but that loader, and only dynamically.
 */
export { CartController } from "./controllers/cart";
export { PartyController } from "./controllers/party";
export { renderCart } from "./steps/cart";
export { renderCheckout } from "./steps/checkout";
export { checkoutStyles } from "./steps/checkout.styles";
export { renderDone } from "./steps/done";
export { renderExtras } from "./steps/extras";
export { renderGuests } from "./steps/guests";
export { renderRoom } from "./steps/room";
