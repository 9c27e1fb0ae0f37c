// @ts-check
// Card codes as the API sends them: a rank (A 2-9 T J Q K, X for a joker) and a suit
// (S H D C; a joker's R or B, red or black). A hidden card is null and stays a back.

/** @type {Record<string, string>} */
const RANKS = {
  A: "ace", T: "10", J: "jack", Q: "queen", K: "king",
};
/** @type {Record<string, string>} */
const SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
/** @type {Record<string, string>} */
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** The card's name for people and screen readers: "king of spades", "red joker", "face down".
 * @param {string | null | undefined} code @returns {string} */
export function cardName(code) {
  if (!code) return "face down";
  const rank = code.slice(0, 1);
  const suit = code.slice(1);
  if (rank === "X") return suit === "R" ? "red joker" : "black joker";
  return `${RANKS[rank] ?? rank} of ${SUITS[suit] ?? suit}`;
}

/** @param {string} code @returns {boolean} */
function isRed(code) {
  return code.endsWith("H") || code.endsWith("D") || code === "XR";
}

/**
 * A card's face (or its back when `code` is null), drawn with text and CSS. The element
 * carries no label of its own: the caller labels the control or the image around it.
 * @param {string | null | undefined} code
 * @returns {HTMLElement}
 */
export function cardFace(code) {
  const face = document.createElement("span");
  face.setAttribute("aria-hidden", "true");
  if (!code) {
    face.className = "card-face back";
    return face;
  }
  const rank = code.slice(0, 1);
  const suit = code.slice(1);
  face.className = `card-face${isRed(code) ? " red" : ""}`;
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.textContent = rank === "X" ? "★" : rank === "T" ? "10" : rank;
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = rank === "X" ? "Joker" : (SYMBOLS[suit] ?? suit);
  face.append(corner, pip);
  return face;
}
