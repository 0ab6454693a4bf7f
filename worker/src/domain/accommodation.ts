/**
 * Accommodation rules, pure. A room type is `rooms` x `beds_per_room`.
 * - Private types sell whole rooms to anyone: a party needs ceil(persons / beds_per_room) rooms.
 * - Shared types sell beds under a gender policy: male-only take only males, female-only only
 *   females; a couple needs a whole room, which only a mixed shared type can give (it takes all
 *   the beds of one room, like srs).
 * - Single room supplement (srs): a party that fits one room of a shared type books the whole
 *   room; it consumes all its beds. fixed: the charge is for the room; otherwise per unbooked bed.
 * Units are beds for shared types and rooms for private ones (inventory counts the same units).
 */
import type { Product } from "./product";

export interface Party {
  males: number;
  females: number;
  couples: number;
}

export const partySize = (p: Party) => p.males + p.females + 2 * p.couples;

type RoomType = Pick<Product, "is_private" | "gender" | "beds_per_room" | "srs">;

const bedsPerRoom = (r: RoomType) => Math.max(1, r.beds_per_room ?? 1);

/** Why a room type cannot take a party, or null when its policy allows it. */
export function policyRefusal(room: RoomType, party: Party): string | null {
  if (partySize(party) === 0) return "the party is empty";
  if (room.is_private) return null;
  if (room.gender === "male" && (party.females > 0 || party.couples > 0)) return "this shared room type takes only males";
  if (room.gender === "female" && (party.males > 0 || party.couples > 0)) return "this shared room type takes only females";
  if (party.couples > 0 && bedsPerRoom(room) < 2) return "couples need a private room or a whole room";
  return null;
}

/**
 * The inventory units a party takes per night, or null when the type's policy refuses it.
 * Shared: one bed per single guest, a whole room per couple. Private: whole rooms.
 */
export function unitsForParty(room: RoomType, party: Party): number | null {
  if (policyRefusal(room, party)) return null;
  if (room.is_private) return Math.ceil(partySize(party) / bedsPerRoom(room));
  return party.males + party.females + party.couples * bedsPerRoom(room);
}

/** Whether srs is on offer to this party: a shared type with an srs rate, and the party fits one room. */
export function srsAvailable(room: RoomType, party: Party): boolean {
  if (room.is_private || !room.srs) return false;
  const size = partySize(party);
  if (size === 0 || size > bedsPerRoom(room)) return false;
  if (room.gender === "male" && party.females + party.couples > 0) return false;
  if (room.gender === "female" && party.males + party.couples > 0) return false;
  return true;
}

/** The srs charge per night for `persons` in one room: the room's charge, or per unbooked bed. */
export function srsChargePerNight(room: RoomType, persons: number): number {
  if (!room.srs) return 0;
  if (room.srs.fixed) return room.srs.charge_minor;
  return room.srs.charge_minor * Math.max(0, bedsPerRoom(room) - persons);
}

/** Units an srs booking holds per night: all beds of one room. */
export const srsUnits = (room: RoomType) => bedsPerRoom(room);

/** Whether a gender may take a bed of this type (a single guest, not a couple). */
export function genderAllowed(room: RoomType, gender: "m" | "f"): boolean {
  if (room.is_private) return true;
  if (room.gender === "male") return gender === "m";
  if (room.gender === "female") return gender === "f";
  return true;
}
