// Mixed-script detection for domain names, after Unicode Technical Standard #39 §5 (decision record
// 0027). A label passes when it is "Highly Restrictive": all its letters belong to one script (its
// resolved script set is not empty), or to Latin with Han and Hiragana/Katakana (Japanese), Han and
// Bopomofo (Chinese) or Han and Hangul (Korean). Characters of the Common and Inherited scripts
// (digits, the hyphen, combining marks) go with any script, and a character used by several
// scripts counts for each of them (its Script_Extensions). So `bücher`, `пример`, `παράδειγμα` and
// `東京tokyo` pass, and `ex\u0430mple` (U+0430, a Cyrillic a) does not.
//
// The scripts are read from the Unicode data of the JavaScript engine (`\p{Script_Extensions=…}`),
// so they follow its Unicode version; a character of a script the list below does not name matches
// no set and is refused.

/** ISO 15924 codes of the Unicode scripts (as of Unicode 17); names the engine does not know are skipped. */
const SCRIPT_CODES = (
  'Adlm Aghb Ahom Arab Armi Armn Avst Bali Bamu Bass Batk Beng Berf Bhks Bopo Brah Brai Bugi Buhd Cakm Cans Cari Cham ' +
  'Cher Chrs Copt Cpmn Cprt Cyrl Deva Diak Dogr Dsrt Dupl Egyp Elba Elym Ethi Gara Geor Glag Gong Gonm Goth Gran ' +
  'Grek Gujr Gukh Guru Hang Hani Hano Hatr Hebr Hira Hluw Hmng Hmnp Hung Ital Java Kali Kana Kawi Khar Khmr Khoj ' +
  'Kits Knda Krai Kthi Lana Laoo Latn Lepc Limb Lina Linb Lisu Lyci Lydi Mahj Maka Mand Mani Marc Medf Mend Merc ' +
  'Mero Miao Mlym Modi Mong Mroo Mtei Mult Mymr Nagm Nand Narb Nbat Newa Nkoo Nshu Ogam Olck Onao Orkh Orya Osge ' +
  'Osma Ougr Palm Pauc Perm Phag Phli Phlp Phnx Plrd Prti Rjng Rohg Runr Samr Sarb Saur Sgnw Shaw Shrd Sidd Sidt ' +
  'Sind Sinh Sogd Sogo Sora Soyo Sund Sunu Sylo Syrc Tagb Takr Tale Talu Taml Tang Tavt Tayo Telu Tfng Tglg Thaa ' +
  'Thai Tibt Tirh Tnsa Todr Tols Toto Tutg Ugar Vaii Vith Wara Wcho Xpeo Xsux Yezi Yiii Zanb'
).split(' ');

/** The combinations of scripts UTS #39 allows in one Highly Restrictive label, besides single scripts. */
const ALLOWED_COMBINATIONS = [
  ['Latn', 'Hani', 'Hira', 'Kana'],
  ['Latn', 'Hani', 'Bopo'],
  ['Latn', 'Hani', 'Hang'],
];

/** A class of the characters of `scripts` and of the Common and Inherited scripts, or null if the engine knows none of them. */
function classOf(scripts: readonly string[]): string | null {
  const known = scripts.filter((code) => {
    try {
      new RegExp(`\\p{scx=${code}}`, 'u');
      return true;
    } catch {
      return false; // a script newer than this engine's Unicode data
    }
  });
  if (known.length === 0) return null;
  return `[\\p{scx=Zyyy}\\p{scx=Zinh}${known.map((code) => `\\p{scx=${code}}`).join('')}]`;
}

/** One pattern per allowed set of scripts; Latin and its combinations first, the most common answers. */
const ALLOWED_LABELS: readonly RegExp[] = [...ALLOWED_COMBINATIONS, ...SCRIPT_CODES.map((code) => [code])]
  .sort((a, b) => Number(b.includes('Latn')) - Number(a.includes('Latn')))
  .map(classOf)
  .filter((cls): cls is string => cls !== null)
  .map((cls) => new RegExp(`^${cls}*$`, 'u'));

/** True when the label's letters are of one script, or of one of the CJK combinations with Latin. */
export function isHighlyRestrictive(label: string): boolean {
  return ALLOWED_LABELS.some((pattern) => pattern.test(label));
}

/** The first label of a domain (in Unicode form) that mixes scripts, or undefined when none does. */
export function mixedScriptLabel(unicodeDomain: string): string | undefined {
  return unicodeDomain.split('.').find((label) => !isHighlyRestrictive(label));
}
