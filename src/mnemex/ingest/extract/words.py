"""The words the offline extractor reads sentences by, written as text.

Stopwords, the cue words that say what kind of thing a name is (an organisation, a
tool, a place, a person...), common first names and places, words too generic to
be a page (all lowercase but :data:`GENERIC_ACRONYMS`), what an acronym looks like,
the regex classes of capital and lower-case letters and marks of every script, the
crude singular :func:`fold`, and :func:`english_words`, the common English
vocabulary a capitalised sentence opener is checked against.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Callable
from importlib import resources


def _words(text: str) -> frozenset[str]:
    """A word list written as text (easier to read and extend than a list of literals)."""
    return frozenset(text.split())


STOPWORDS = _words(
    """a about above after again against all almost along already also although always am among
    an and another any anyone anything are around as at away back be became because become
    been before being below between both but by can cannot could did do does doing done down
    during each either else enough even ever every few first for from further get gets got
    had has have having he her here hers herself him himself his how however i if in into is
    it its itself just last least less like made make makes many may me might more most much
    must my myself never new next no nor not now of off often old on once one only onto or
    other others our ours ourselves out over own per perhaps quite rather really same second
    see several shall she should since so some such than that the their theirs them
    themselves then there therefore these they this those though through thus to together
    too toward towards under until up upon us very via was we well were what whatever when
    where whether which while who whom whose why will with within without would yet you your
    yours yourself yourselves two three four five six seven eight nine ten hundred thousand
    million billion today yesterday tomorrow ago says said say tell told ask asked use used
    uses using go goes went come came take took takes put keep keeps kept give gave given
    know knew known think thought want wanted wants need needs needed let lets seem seems
    called call calls way ways thing things something nothing everything anything lot lots
    kind sort part parts time times year years day days week weeks month months people
    person man men woman women instead still yes q mostly simply fully especially slightly
    already entirely run runs ran write writes wrote written read reads show shows showed
    shown found include includes included including add adds added adding work works worked
    working become becomes look looks looked stay stays stayed help helps hold holds held
    leave leaves left bring brings brought begin began begun start started starts set sets
    turn turns move moved moves grow grew grown mean means meant try tried tries remain
    remains remained replace replaces replaced follow follows followed explain explains
    explained decide decides decided return returns returned ship ships shipped join joins
    joined pay pays paid own owns owned sell sells sold offer offers offered expect expects
    expected protect protects protected"""
)
HONORIFICS = _words("""dr dr. prof prof. mr mr. mrs mrs. ms ms. sir dame mx mx.""")
ORG_SUFFIXES = _words("""inc inc. ltd ltd. llc gmbh corp corp. plc co co. sa ag bv""")
ORG_WORDS = _words(
    """university institute foundation labs lab laboratory laboratories society association
    agency council group bank college school academy corporation company ministry department
    consortium alliance federation union partners systems technologies software analytics
    security research network networks industries holdings ventures capital media press
    museum library hospital commission office bureau organisation organization trust"""
)
TOOL_WORDS = _words(
    """database library framework engine client language tool toolkit compiler server protocol
    format extension plugin layer runtime interpreter editor kernel driver sdk api cli shell
    package module parser codec algorithm model application program software version release"""
)
#: A product's interfaces, written after its name ("Curator App", "Curator MCP"): the name
#: plus one of these is the product itself. Never "Cloud", "Sync", "Labs" or "Foundation":
#: "Kestrel Cloud" is a product of its own, "Zürich Labs" no place.
PRODUCT_SUFFIXES = _words("""App Apps MCP CLI SDK API Server Plugin Extension Client""")
PRODUCT_WORDS = _words("""service product platform app console device cloud""")
EVENT_WORDS = _words(
    """conference summit festival meetup workshop symposium congress expo hackathon"""
)
PROJECT_WORDS = _words(
    """benchmark project experiment suite programme program study initiative mission trial"""
)
PERSON_WORDS = _words(
    """said says told student students director manager engineer professor founder maintainer
    researcher author chair ceo cto doctoral scientist developer designer writer editor
    colleague"""
)
#: A name ending in one of these is a place, whatever else it is named after.
PLACE_WORDS = _words(
    """bridge river street road avenue square park city town village county province state
    mountain mount lake island bay valley station airport harbour harbor port district"""
)
#: Prizes and the like: never a person, even when named after one.
AWARD_WORDS = _words("""prize award medal fellowship scholarship grant lecture chair""")
PLACE_PREPOSITIONS = _words("""in at from to near outside across""")
ORG_CONTEXT = _words(
    """company foundation university institute lab organisation organization non-profit firm
    startup agency charity"""
)
#: Common first names across languages: a strong "person" signal for a two-word name.
FIRST_NAMES = _words(
    """aaron ada adam adrian ahmed aisha alan albert alex alexander alice alicia amal amanda amir
    amara anil augusta ayesha chidi dennis deepa donald dorothy edsger frances guido hedy
    jun katherine ken kofi linus margaret mira ngozi radia sunita tim tomas tunde vint wei yuki
    amy ana andrea andrew angela anna anne anton antonio arjun ava barbara ben benjamin bob
    brian bruno carl carla carlos carmen caroline charles charlie chen chris christian
    christina claire clara daniel david diana diego dmitri elena eli elif elizabeth ella
    emily emma eric erik eva fatima felix fernando francesca frank gabriel george grace hana
    hannah hans harry helen henry hiroshi hugo ian ibrahim ines ingrid isaac isabel ivan
    jack jacob james jan jane javier jean jennifer jessica joe johan john jonas jorge jose
    joseph juan julia julian kai karen karl kate katarina kevin kim laura lars lea lena leo
    li liam lin linda lisa lucas lucia luis luke maria marco marcus maria mark marta martin
    mary matteo matthew max maya mehmet mei michael michelle miguel mikhail mohammed nadia
    naomi nathan nina noah nora olga oliver olivia omar oscar pablo patricia paul pedro
    peter petra philip pierre priya rachel rahul rajesh ravi rebecca richard robert rosa
    ruth ryan samira samuel sara sarah sean sergei simon sofia sophie stefan stephen steven
    susan sven thomas tim tomas tom tobias ursula valentina victor victoria wei william xin
    yan yasmin yuki yusuf zoe"""
)
PLACES = _words(
    """amsterdam athens bangalore barcelona beijing berlin boston brussels budapest buenos
    cairo chicago copenhagen delhi dublin edinburgh geneva hamburg helsinki istanbul jakarta
    johannesburg kyoto lagos lisbon london madrid manila melbourne mexico milan montreal
    moscow mumbai munich nairobi oslo paris prague rome rotterdam seoul shanghai singapore
    stockholm sydney taipei tokyo toronto vancouver vienna warsaw zurich africa america asia
    europe australia canada china france germany india italy japan kenya netherlands nigeria
    norway portugal spain sweden switzerland brazil"""
)
MONTHS = _words(
    """january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday"""
)
#: Capitals that name no thing: a reply, a time of day, a letter, a unit, an interface in
#: general (API). Formats, standards and protocols (``HTML``, ``SQL``, ``JSON``, ``CLI``)
#: are things a reader looks up, and are names (issue 15: they were dropped before).
GENERIC_ACRONYMS = _words(
    """OK AM PM Q A I ID FAQ README PR CI API APIs KB MB GB TB PB KiB MiB GiB TiB"""
)
#: The sections documents are cut into: "as seen in the Motivation" names a section of
#: the document when one of its headings reads so, not a thing.
SECTION_WORDS = _words(
    """abstract acknowledgements acknowledgments appendix background changelog conclusion
    conclusions contributing copyright discussion examples features footnotes installation
    introduction license motivation overview rationale references requirements
    specification summary usage"""
)
#: Markers written in capitals that label a line or an item, never a name ("TODO:").
STATUS_LABELS = _words(
    """todo fixme xxx tbd tbc wip fyi nb note notes done draft new hot tip info todos"""
)
#: Single words too general to be a concept page.
GENERIC_NOUNS = _words(
    """company university release version database project data file system user code world
    community team support result number point value question answer paper talk news
    software record document page section example problem issue change feature level group
    information process service product country city government business market summary
    folder machine memory source session operation writing optional file line name text
    list table key type word note link path test output input default option setting
    case order form rule step state reason detail content image title author date end
    start side area place home room family child life history story idea fact view
    runtime syntax semantics semantic parameter attribute subclass superclass callback
    keyword argument usage behavior behaviour implementation interface"""
)
#: Words that qualify a noun without naming a kind of it: "additional keyword",
#: "corresponding key", "valid type", "exactly equivalent" name no particular thing,
#: where "lower bound", "regular expression" or "final class" do.
QUALIFIERS = _words(
    """actual additional arbitrary appropriate automatic automatically basic certain common
    correct corresponding current custom defined different earlier efficient entire exact
    exactly existing following further given important individual
    invalid later manual multiple necessary normal original particular possible potential
    potentially previous proper proposed real relevant separate similar simple single
    specific typical usual valid various whole wrong"""
)


def _verb_forms(text: str) -> frozenset[str]:
    """Each verb with its -s and -ing forms ("allow allows allowing", "infer infers
    inferring", "throw throws throwing")."""
    forms = set()
    for verb in text.split():
        stem = verb[:-1] if verb.endswith("e") and not verb.endswith("ee") else verb
        if re.search(r"[^aeiou][aeiou][bdgmnprt]$", verb) and verb.endswith(("fer", "mit")):
            stem = verb + verb[-1]  # infer -> inferring, submit -> submitting
        ends_like_s = verb.endswith(("s", "sh", "ch", "x", "z"))
        forms |= {verb, verb + ("es" if ends_like_s else "s"), stem + "ing"}
    return frozenset(forms)


#: Verbs that read as a noun phrase's head or modifier to a phrase counter ("callable
#: contains", "module lacks", "encourage libraries", "throw spurious errors"): a phrase
#: they start or end is a clause cut out of a sentence, not a concept.
VERBS = _verb_forms(
    """accept adjust allow assume avoid behave consume contain declare define describe
    discuss distribute enable encounter encourage ensure indicate infer introduce lack
    prevent propose provide refer report represent require specify throw"""
)
DETERMINERS = _words("""the a an this that each every its their our your his her""")
CONNECTORS = _words("""of for de van von der la du da di""")


def _char_class(wanted: Callable[[str], bool]) -> str:
    """A regex character class of the characters (Basic Multilingual Plane) ``wanted`` keeps,
    written as ranges: Python's ``re`` has no Unicode property classes."""
    ranges: list[tuple[int, int]] = []
    for code in range(0x10000):
        if wanted(chr(code)):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    parts = (re.escape(chr(a)) + ("" if a == b else "-" + re.escape(chr(b))) for a, b in ranges)
    return "[" + "".join(parts) + "]"


#: A capital letter of any script ("É", "Ł", "Ж", "Ω"), for name patterns.
UPPER = _char_class(lambda c: unicodedata.category(c) in ("Lu", "Lt"))
#: A lower-case letter of any script.
LOWER = _char_class(lambda c: unicodedata.category(c) == "Ll")
#: A combining mark (a Devanagari vowel sign, an accent left uncomposed): part of its word.
MARK = _char_class(lambda c: unicodedata.category(c).startswith("M"))

#: An acronym: two to six capitals, perhaps a plural "s" ("RAG", "LLMs", "ÖBB").
ACRONYM_RE = re.compile(rf"{UPPER}{{2,6}}s?")


def fold(word: str) -> str:
    """A crude singular: policies → policy, segments → segment, classes → class, aliases →
    alias, indexes → index, matches → match, branches → branch (not class, bus, analysis;
    "caches" stays "cache")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "shes", "xes", "iases", "tches", "nches", "rches")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ias", "ics")):
        return word[:-1]
    return word


#: Words the tokenizer vocabulary ranks before this id are everyday English ("function",
#: "module", "performance"): too common to name a concept of their own. Its ids follow the
#: frequency of the text it was built from, from about 2,000 ("the") to 30,000; a word
#: past the line or not in it at all ("metaclass", "normalization", "codebook") is
#: specific enough (issue 15: chosen on the tuning half of the typing PEPs).
COMMON_BEFORE = 13_000


def common_word(word: str) -> bool:
    """Whether ``word`` (lower case) is everyday English, by its rank in the shipped
    tokenizer's vocabulary (:data:`COMMON_BEFORE`)."""
    rank = _vocabulary().get(word)
    return rank is not None and rank < COMMON_BEFORE


@functools.cache
def _vocabulary() -> dict[str, int]:
    data = resources.files("mnemex.embed").joinpath("data/minilm-tokenizer.json").read_bytes()
    vocab: dict[str, int] = json.loads(data)["model"]["vocab"]
    return {w: i for w, i in vocab.items() if w.isalpha() and w.islower()}


_SUFFIXES = _words(
    """izations ization ations ation ions ion ities ity ness ized izes ize ings ing ators ator
    iers ier ers er ed es s ly d al ic ate"""
)
_PREFIXES = _words("""dis un re non sub over under pre multi inter de in im""")


@functools.cache
def english_word(word: str, *, compounds: bool = True) -> bool:
    """Whether ``word`` (lower case) is English by the vocabulary of :func:`english_words`
    or made of it: an inflection or derivation ("checkers", "overridden", "totality"), a
    prefix on one ("unsoundness", "disconnect"), or two words run together ("runtime",
    "keyword", "codebook"; not with ``compounds=False``: "marlow" is no "mar" + "low").
    A word that is none of these ("mypy", "pyright", "asyncio", "lxml") is a coined name:
    a tool's or a project's."""
    if _english_base(word):
        return True
    if any(
        word.startswith(prefix)
        and len(word) - len(prefix) >= 4
        and _english_base(word[len(prefix) :])
        for prefix in _PREFIXES
    ):
        return True
    words = english_words()
    return compounds and any(
        word[:k] in words and _english_base(word[k:]) for k in range(3, len(word) - 2)
    )


def _english_base(word: str) -> bool:
    words = english_words()
    if word in words or fold(word) in words:
        return True
    for suffix in _SUFFIXES:
        base = word[: -len(suffix)]
        if word.endswith(suffix) and len(base) >= 3:
            doubled = len(base) > 3 and base[-1] == base[-2] and base[:-1] in words
            if doubled or any(base + end in words for end in ("", "e", "y", "ed", "es")):
                return True
    return False


@functools.cache
def english_words() -> frozenset[str]:
    """The whole words of the shipped MiniLM tokenizer's vocabulary: 30,000 common English
    words ("large", "however", "today") against which a capitalised opener is no name."""
    return frozenset(_vocabulary())


__all__ = [
    "ACRONYM_RE",
    "AWARD_WORDS",
    "COMMON_BEFORE",
    "CONNECTORS",
    "DETERMINERS",
    "EVENT_WORDS",
    "FIRST_NAMES",
    "GENERIC_ACRONYMS",
    "GENERIC_NOUNS",
    "HONORIFICS",
    "LOWER",
    "MARK",
    "MONTHS",
    "ORG_CONTEXT",
    "ORG_SUFFIXES",
    "ORG_WORDS",
    "PERSON_WORDS",
    "PLACES",
    "PLACE_PREPOSITIONS",
    "PLACE_WORDS",
    "PRODUCT_SUFFIXES",
    "PRODUCT_WORDS",
    "PROJECT_WORDS",
    "QUALIFIERS",
    "SECTION_WORDS",
    "STATUS_LABELS",
    "STOPWORDS",
    "TOOL_WORDS",
    "UPPER",
    "VERBS",
    "common_word",
    "english_word",
    "english_words",
    "fold",
]
