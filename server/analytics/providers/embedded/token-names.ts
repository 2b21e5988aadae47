/** Names of the embedded market's launches: an adjective and an animal or thing, and a ticker made from them. */
import type { Rng } from "./random.js";

const ADJECTIVES =
  "Orbit Moon Based Tiny Giga Turbo Sleepy Angry Golden Cosmic Pixel Neon Wild Lucky Baby Super Dark Happy Chad Magic Frosty Retro Mega Royal".split(
    " ",
  );
const NOUNS =
  "Cat Dog Pepe Frog Ape Whale Goose Hamster Duck Penguin Otter Wizard Rocket Banana Bear Bull Llama Cow Fish Toad Doge Panda Koala Sherpa".split(
    " ",
  );

/** A meme-coin name and its ticker (at most 10 characters), drawn from `r`. */
export function tokenName(r: Rng): { name: string; symbol: string } {
  const adjective = r.pick(ADJECTIVES);
  const noun = r.pick(NOUNS);
  const style = r.int(0, 2);
  const symbol =
    style === 0 ? adjective.slice(0, 2) + noun : style === 1 ? noun : `${adjective.slice(0, 1)}${noun}${r.int(1, 9)}`;
  return { name: `${adjective} ${noun}`, symbol: symbol.toUpperCase().slice(0, 10) };
}
