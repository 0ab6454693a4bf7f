/** Everything after the calendar, in one chunk (see load-later.ts): the steps and the cart actions. */
export * from "./controllers/later-actions";
export { renderCart } from "./steps/cart";
export { renderCheckout } from "./steps/checkout";
export { renderDone } from "./steps/done";
export { renderExtras } from "./steps/extras";
export { renderGuests } from "./steps/guests";
export { renderRoom } from "./steps/room";
export { laterStyles } from "./steps/later.styles";
