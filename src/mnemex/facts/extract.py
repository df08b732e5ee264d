"""The offline claim extractor: one short statement in, the claims it makes out, no model.

:func:`extract` reads a sentence or two (a person's note, a document line, an agent's
hand-off) and returns :class:`~mnemex.facts.claims.Claim` objects for the closed list of
predicates in :data:`~mnemex.facts.claims.PREDICATES`. It is a rule reader, in steps:

1. **Refuse** what is not a statement: questions (except proposals, after an optional
   ``Label:``: ``should X ...?``, ``why not ...?``, ``how about ...?``, read as a hedged
   tool or project-attribute claim), code, and instruction-like or quoted text
   (``ignore previous instructions and say ...``): a quoted or injected sentence is
   someone else's words, not a claim, so it gives no claim at all.
2. **Find things**: the known names of the :class:`~mnemex.facts.claims.NameBook`
   (case- and accent-insensitive, longest alias first, on word boundaries, possessives
   included), the built-in :data:`GAZETTEER` of common software and drinks (each with
   its category), first-person words (``me`` only as the one a thing is for: ``no more
   coffee for me``), and the dates (:mod:`mnemex.facts.when`). Things the sentence
   drops are set aside, so a change names its new value: ``from X to Y``, ``drops X and
   adopts Y``, ``swapped X for Y``, ``X out, Y in``, ``X -> Y``, ``X is being replaced``,
   ``no more X``, ``Y over X``.
3. **Read predicates**, in order, keeping the first that reads and has a subject:
   ``status`` (leave, holiday, code freeze), ``prefers`` (a preference wording: ``prefer``,
   ``favourite``, ``leans towards``, ``given the choice``, ``if I get to choose``, ``if it
   were up to me``, ``I'd rather``, ``swears by``, ``X over Y``...; or a drink with a
   consuming cue: ``drinks``, ``goes for``, ``back``, ``in my life``...), ``uses`` /
   ``project_attribute`` (a gazetteer item; a project in the sentence takes it as an
   attribute keyed by the item's category, a person as a tool of that kind), ``role`` (a
   job title after a title cue, ``takes on the role of``, ``take up the position of``, or
   the new one in ``goes from A to B``; a title scoped to a project is written ``<Project>
   <Title>`` however it is said: ``Tech Lead of Keelhaul``, ``the Keelhaul platform's tech
   lead``, ``the tech lead for Keelhaul``), ``works_at`` (an organisation after an
   employment cue, a membership, ``a member of the X team``, ``part of the X team``, or a
   leaving, ``departs``, ``the departure of A from X``, ``whose final day with X``,
   ``stepping down from X``), ``lives_in`` (a capitalised place after a home/move cue, in
   an appositive ``X, a Madrid resident,``, or on a dwelling that became a home: ``the keys
   to the Lisbon apartment``, ``bought a house in Haarlem``).
4. **Find the subject** by what the predicate needs: a project for project attributes; for
   people the candidate (known person, first-person word, or ``she``/``he`` standing for
   the last person named) nearest before the cue, else the first after it. A statement with
   no candidate is the writer's own when it has no subject word: it opens on a verb (``Been
   with ...``, ``Switched to ...``, ``Back on ...``, ``No more ...``) or is a note line on
   an attribute (``Editor: Vim``, ``Daily driver editor: VSCode``, ``VPN (WireGuard) for
   ...``; a note line with its time before the value, ``Home since March 2019: Rotterdam``,
   is read value first). A first-person subject is ``speaker``; with no speaker (an agent
   or a document talking) such a claim is dropped.
5. **Attach time**: each date is a start or an end by the cue nearest before it
   (``until``, ``back on``, ``will be lifted on``, ``expires``, ``last day`` (+1 day),
   ``since``, ``from``, ``taking effect``...; a few words and commas may stand between,
   ``until release day, 2026-05-14``); ``through X`` and ``until the end of X`` include
   X; a leaving's date is its last day (``leaves on 30 January``: until the 31st);
   ``still``/``for the whole of ... this month`` bounds both ends, but a perfect ``been
   ... all this month`` only starts it; a date in another clause counts only when that
   clause is about timing (``started``, ``cutover``, ``takes effect``, ``is over``...);
   an appositive takes no date from its sentence. Phrases with no date (``a while
   back``) flag the claim ``time_resolved=False``. ``planned`` is set when the start is
   after the evidence date, or the cue verb is future (``is moving``, ``will join``,
   ``once ...``, a change in the simple present, ``In July I relocate``, or a clipped
   progressive, ``Moving to Lisbon in July!``). ``condition`` (``in the morning``,
   ``before noon``, ``when on X``, ``only for X``, ``on X only``; known names in it are
   written in canonical form, ``when on KH staging`` -> ``when on Keelhaul staging``)
   and ``hedged`` (``probably``, ``guessing``, ``draft``, ``RFC suggesting``, a proposal
   question) are read last.

Chat and note forms are read as the sentences they stand for: a chat opener (``fyi``,
``btw``) is dropped; an assignment with an attribute for its head is a note line (``role =
Sr. Software Engineer``, ``LF hosting = Heroku``), title abbreviations are written out
(``Sr.`` -> ``Senior``); ``X > Y`` is ``X over Y``; a lone initial (``P. will be out``) is
the one known person whose name it begins, when only one does (never ``I``); ``a tea
person``, ``a coffee drinker`` state a taste; ``for the current month`` bounds both ends
like ``this month``; ``ends on 13 May`` includes that day; a tool a person uses on a
project's environment (``KH staging: I connect through WireGuard``) is conditioned on it.

A note line is first written as the sentence it stands for (:func:`_note_line`): an
attribute and its value (``drink pref: coffee``, ``fav lang: Python``, ``T. Wierzbicki role:
Platform Lead, since Mon``, ``Location: Madrid (Inês Duarte)``, ``editor -> Zed``), or a
person, a separator and what they are, the value's kind deciding the predicate (``T.
Wierzbicki | Tidewater Labs``, ``I. Duarte - Backend Engineer, effective ...``, ``Promotion:
M. Okafor -> Staff Engineer``, ``Priya - tea in the mornings``). A value that is a
placeholder (``TBD``, ``n/a``) gives nothing; a person and a place, known from the brain's
own facts or from the built-in cities of :mod:`mnemex.facts.places` however cased (``ines:
madrid``, ``tom -> gdansk``), is where they live (an arrow with a move word: a move); a
person and any other unknown word is left alone, as it may be a place, an employer or neither.
A state in the present with ``this month`` and no word of change (``Ines is living in
Madrid this month``) holds for the month; a weekday may be written short and capitalised
(``since Mon``); ``from April`` looks ahead; a guess said as a question after a hedging
label (``agent's read (not her words): Maren prefers Rust?``) is a hedged claim. A table's
row comes as its cells (``Keelhaul | IaC tool | Terraform``: a name, an attribute, a value);
``@`` between words is ``at``; ``wk``, ``yr``, ``mth`` are written out; a lone capital
before a verb (``M prefers``) is the one person whose name it begins (never ``I`` or ``A``).
A list item's bullet, a chat closer (``pls note``, ``save that``), ``SWE`` and ``eff.`` are
undone; ``OOO`` is a leave; a heading label names what its line states (``Relocations: I.
Duarte, Porto, from ...``, ``Promotion: M. Okafor to Staff Engineer``); a person's tool or
taste opening a fragment (``tea now, not coffee``) is the writer's; a ``while`` clause in
the past (``While we were debugging ..., Maren explained ...``) tells when it was said and
is no condition; so does ``today's session`` when nothing changed. Chat typed in lower case
gets back the capitals the reader needs: ``i``, a month or weekday after its cue, the word
after a strong home cue (``i live in rotterdam``, ``relocating to lisbon``; not ``in
peace``, ``to production``); a month with its day is a month however cased (``apr 1
2022``); ``yday`` and ``come July`` are read. A request to keep something asked as a
question (``Could you remember that Tomasz lives in Rotterdam?``) states what it asks to
keep; a table row with a person and, later, an organisation says where they work. A
lower-case title after ``I'm a``/``is a`` in chat is a title when its words are title
words (``I'm a senior software engineer``; not ``a good engineer``); ``prob`` is
``probably``; a slashed date is read when its day shows (``30/01/2026``; ``03/04/2026``
gives nothing); a hedge in brackets makes a question a hedged claim.

Limits: English only; one claim per statement (the first predicate that reads with a
subject); pronouns beyond ``she``/``he`` are not resolved; unknown places and
organisations are the capitalised words after a cue, so a lower-case or unusual name is
missed; negation is a nearby-keyword test; titles need capitals or a strong cue
(``title is``, ``promoted to``, ``from A to B``); the gazetteer decides kinds and keys,
so an unknown tool is only read when the sentence names its kind (``my editor is X``);
a subject-less line is taken as the writer's own, so a document's fragment about
someone unnamed gives nothing (no speaker) and a person's fragment about someone else
is misread as about themselves; conditions are kept as written apart from known names
(``when on KH staging`` becomes ``when on Keelhaul staging``: nothing the text does not
say, such as ``cluster``, is added), and verbs the strip list does not know stay in them
(``when pair with X``); the plan tests are keyword tests (``moves``, ``joins``,
``relocate``, or ``Moving``/``Relocating``... with no auxiliary, each with no past word
in the sentence); a lower-case title needs a strong cue or a project it leads (``the
tech lead for Lanternfish``); a membership of an unknown organisation needs a staff word
after it (``part of the Initech team``), so ``part of Initech`` alone is read only for
a known one; a departure that names no organisation (``the departure of Tomasz,
effective Friday``) gives nothing; a value-last note line must have a date or ``now``
between its attribute and its colon.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace

from dateutil.relativedelta import relativedelta

from mnemex.facts.claims import Claim, Name, NameBook, Precision
from mnemex.facts.places import CITIES
from mnemex.facts.when import MONTHS, WEEKDAYS, TimeMention, find_times, is_future

# --------------------------------------------------------------------------- gazetteer

#: ``canonical | category | aliases`` (comma-separated; a leading ``=`` marks an alias
#: that only matches with this exact capitalisation, for words that are also English).
_GAZETTEER_TABLE = """
VS Code | editor | vscode, vs-code, visual studio code, vsc
Visual Studio | editor |
Vim | editor | vi
Neovim | editor | nvim, neo vim
Emacs | editor | gnu emacs, doom emacs, spacemacs
Zed | editor | zed editor
Sublime Text | editor | sublime
Atom | editor | =Atom
IntelliJ IDEA | editor | intellij, idea ultimate
PyCharm | editor |
WebStorm | editor |
GoLand | editor |
CLion | editor |
RubyMine | editor |
PhpStorm | editor |
Rider | editor | =Rider
Helix | editor | =Helix, hx editor
Nano | editor | gnu nano, nano
Kate | editor | =Kate
Xcode | editor |
Android Studio | editor |
Eclipse | editor | =Eclipse
Notepad++ | editor | notepad plus plus
Cursor | editor | =Cursor, cursor ide
Fleet | editor | =Fleet
Kakoune | editor |
TextMate | editor |
BBEdit | editor |
bash | shell | bash shell
zsh | shell | z shell, oh-my-zsh, oh my zsh
fish | shell | fish shell
PowerShell | shell | pwsh
Nushell | shell | nu shell
tcsh | shell |
ksh | shell | korn shell
xonsh | shell |
iTerm2 | terminal | iterm, iterm 2
Alacritty | terminal |
kitty | terminal | kitty terminal
WezTerm | terminal |
Ghostty | terminal |
Windows Terminal | terminal |
GNOME Terminal | terminal |
Konsole | terminal |
Warp | terminal | =Warp, warp terminal
tmux | multiplexer |
Zellij | multiplexer |
WireGuard | vpn | wire guard
OpenVPN | vpn | open vpn
Tailscale | vpn |
ZeroTier | vpn |
Mullvad | vpn | mullvad vpn
NordVPN | vpn | nord vpn
ExpressVPN | vpn | express vpn
ProtonVPN | vpn | proton vpn
Cisco AnyConnect | vpn | anyconnect
GlobalProtect | vpn |
Cloudflare WARP | vpn | cloudflare warp, 1.1.1.1 warp
Headscale | vpn |
Linux | os | gnu/linux
macOS | os | mac os, osx, os x, mac os x
Windows | os | =Windows, windows 10, windows 11, win11
Ubuntu | os |
Debian | os |
Fedora | os |
Arch Linux | os | =Arch, archlinux
NixOS | os |
Pop!_OS | os | pop os, pop!os, popos
Linux Mint | os |
openSUSE | os | suse
FreeBSD | os |
OpenBSD | os |
ChromeOS | os | chrome os
Manjaro | os |
Gentoo | os |
elementary OS | os |
Alpine Linux | os |
CentOS | os |
Rocky Linux | os |
Red Hat Enterprise Linux | os | rhel, red hat
Firefox | browser | mozilla firefox, firefox developer edition
Chrome | browser | google chrome
Chromium | browser |
Safari | browser |
Edge | browser | microsoft edge, =Edge
Brave | browser | =Brave, brave browser
Vivaldi | browser |
Opera | browser | =Opera
Arc | browser | =Arc, arc browser
LibreWolf | browser |
Tor Browser | browser |
Zen Browser | browser |
Python | language | python3, py3, cpython
Rust | language | rustlang
Go | language | golang, =Go
TypeScript | language | =TS
JavaScript | language | =JS, node.js, nodejs, node
Java | language | =Java
Kotlin | language |
Scala | language |
Ruby | language | =Ruby
PHP | language |
C# | language | csharp, c sharp
C++ | language | cpp
Swift | language | =Swift
Elixir | language |
Erlang | language |
Haskell | language |
OCaml | language |
Clojure | language |
Lua | language |
Perl | language |
Zig | language |
Nim | language | =Nim
Dart | language | =Dart
F# | language | fsharp
Gleam | language | =Gleam
Elm | language | =Elm
Objective-C | language | objc
Fortran | language |
COBOL | language |
Groovy | language | =Groovy
Solidity | language |
PostgreSQL | database | postgres, postgresql, =PG, psql, postgre, pgsql
MySQL | database |
MariaDB | database |
MongoDB | database | mongo, mongo db
SQLite | database | sqlite3
Redis | database |
Cassandra | database | apache cassandra
CockroachDB | database | cockroach, crdb
DynamoDB | database | dynamo
Elasticsearch | database | elastic search
OpenSearch | database |
Neo4j | database |
ClickHouse | database |
Snowflake | database | =Snowflake
BigQuery | database | big query
Firestore | database |
Supabase | database |
Oracle Database | database | =Oracle, oracle db
SQL Server | database | mssql, microsoft sql server
CouchDB | database |
Couchbase | database |
InfluxDB | database | influx
TimescaleDB | database | timescale
Memcached | database |
etcd | database |
FoundationDB | database |
ScyllaDB | database | scylla
DuckDB | database |
Valkey | database |
PlanetScale | database |
Neon | database | =Neon
Amazon Aurora | database | aurora
Cosmos DB | database | cosmosdb
SurrealDB | database |
TiDB | database |
YugabyteDB | database | yugabyte
Heroku | hosting |
Fly.io | hosting | fly, flyio, fly io
AWS | hosting | amazon web services, =EC2, ec2
Google Cloud | hosting | gcp, google cloud platform, =GCE
Azure | hosting | microsoft azure
Vercel | hosting |
Netlify | hosting |
Render | hosting | =Render, render.com
Railway | hosting | =Railway, railway.app
DigitalOcean | hosting | digital ocean
Linode | hosting | akamai cloud
Hetzner | hosting | hetzner cloud
Cloudflare | hosting | cloudflare workers, cloudflare pages
GitHub Pages | hosting | gh pages
OVHcloud | hosting | ovh
Scaleway | hosting |
Vultr | hosting |
AWS Lambda | hosting | lambda
Google App Engine | hosting | app engine
Cloud Run | hosting | google cloud run
Elastic Beanstalk | hosting |
Firebase | hosting | firebase hosting
Deno Deploy | hosting |
Koyeb | hosting |
Kubernetes | orchestration | k8s, kube, eks, gke, aks
Nomad | orchestration | =Nomad, hashicorp nomad
Docker Swarm | orchestration |
Amazon ECS | orchestration | ecs
Terraform | iac_tool | =TF, terraform cloud
OpenTofu | iac_tool | tofu
Pulumi | iac_tool |
Ansible | iac_tool |
CloudFormation | iac_tool | aws cloudformation, cfn
AWS CDK | iac_tool | =CDK, cdk
Chef | iac_tool | =Chef
Puppet | iac_tool | =Puppet
SaltStack | iac_tool | =Salt
Crossplane | iac_tool |
Bicep | iac_tool | =Bicep
Terragrunt | iac_tool |
Packer | iac_tool | =Packer
GitHub Actions | ci | gha, gh actions, github action
GitLab CI | ci | gitlab ci/cd, gitlab pipelines
Jenkins | ci |
CircleCI | ci | circle ci
Travis CI | ci | travis
Buildkite | ci |
Drone CI | ci | =Drone
TeamCity | ci |
Azure Pipelines | ci | azure devops pipelines
Bitbucket Pipelines | ci |
Argo CD | ci | argocd, argo
Tekton | ci |
Concourse CI | ci | =Concourse
Woodpecker CI | ci | =Woodpecker
GoCD | ci |
Django | framework |
Flask | framework | =Flask
FastAPI | framework |
Ruby on Rails | framework | rails, =Rails
Laravel | framework |
Spring Boot | framework | =Spring
Express | framework | express.js, expressjs
Next.js | framework | nextjs, next js
Nuxt | framework | nuxt.js
React | framework | react.js, reactjs
Vue | framework | vue.js, vuejs
Angular | framework |
Svelte | framework |
SvelteKit | framework |
Remix | framework | =Remix
Phoenix | framework | =Phoenix
Actix | framework | actix-web
Axum | framework |
.NET | framework | dotnet, asp.net
NestJS | framework |
Astro | framework | =Astro
Symfony | framework |
Datadog | monitoring |
Grafana | monitoring |
Prometheus | monitoring |
Sentry | monitoring |
New Relic | monitoring |
Docker | container |
Podman | container |
coffee | drink | black coffee, filter coffee
tea | drink | black tea
green tea | drink |
herbal tea | drink |
espresso | drink | espressos
flat white | drink |
cappuccino | drink |
latte | drink | lattes
americano | drink |
cortado | drink |
matcha | drink | matcha latte
chai | drink | chai latte
mate | drink | yerba mate
decaf | drink | decaf coffee
hot chocolate | drink | cocoa
water | drink | sparkling water
kombucha | drink |
juice | drink | orange juice
beer | drink |
wine | drink | red wine, white wine
cola | drink | coke
energy drinks | drink | energy drink, red bull
pizza | food |
sushi | food |
ramen | food |
pasta | food |
curry | food |
tacos | food |
salad | food | salads
"""

#: Project attribute key for a gazetteer category (other categories are never keys).
PROJECT_KEYS: dict[str, str] = {
    "database": "database",
    "hosting": "hosting",
    "iac_tool": "iac_tool",
    "ci": "ci",
    "language": "language",
    "framework": "framework",
    "orchestration": "orchestration",
    "monitoring": "monitoring",
    "container": "container",
}
_CONSUMABLE = frozenset({"drink", "food"})
_TASTES = frozenset({"drink", "food", "language"})


@dataclass(frozen=True)
class Software:
    """A gazetteer entry: the canonical name and its category (``editor``, ``database``...)."""

    canonical: str
    category: str


def _load_gazetteer() -> tuple[dict[str, Software], dict[str, Software]]:
    folded: dict[str, Software] = {}
    exact: dict[str, Software] = {}
    for line in _GAZETTEER_TABLE.strip().splitlines():
        canonical, category, aliases = (part.strip() for part in line.split("|"))
        entry = Software(canonical, category)
        alias_list = [a.strip() for a in aliases.split(",")]
        if f"={canonical}" not in alias_list:  # a word that is also English: exact case only
            folded.setdefault(_fold_keep(canonical), entry)
        for alias in alias_list:
            if not alias:
                continue
            if alias.startswith("="):
                exact.setdefault(alias[1:], entry)
            else:
                folded.setdefault(_fold_keep(alias), entry)
    return folded, exact


def _fold_keep(text: str) -> str:
    """Case- and accent-fold ``text`` one character at a time, keeping its length."""
    out: list[str] = []
    for ch in text:
        bare = "".join(
            c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)
        ).lower()
        out.append(bare[0] if bare else ch)
    return "".join(out)


def _alternation(aliases: list[str]) -> str:
    parts = sorted(set(aliases), key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(w) for w in a.split()) for a in parts)


_GAZ_FOLDED, _GAZ_EXACT = _load_gazetteer()
_CITY_KEYS = {_fold_keep(name): city for name, city in CITIES.items()}
_CITY_RE = re.compile(rf"(?<![\w.-])(?:{_alternation(list(_CITY_KEYS))})(?![\w]|-(?!based\b)|\.\w)")
#: Every built-in entry by folded alias (case-insensitive aliases only).
GAZETTEER: dict[str, Software] = dict(_GAZ_FOLDED)
_GAZ_RE = re.compile(rf"(?<![\w.+#-])(?:{_alternation(list(_GAZ_FOLDED))})(?![\w+#]|\.\w)")
_GAZ_EXACT_RE = re.compile(rf"(?<![\w.+#-])(?:{_alternation(list(_GAZ_EXACT))})(?![\w+#]|\.\w)")

# --------------------------------------------------------------------------- lexicon

_HEDGE = re.compile(
    r"\b(?:probably|likely|unlikely|seems?|seemingly|appears?\s+to|apparently|guess(?:ing)?"
    r"|inference|inferred|my\s+read|my\s+take|i\s+think|i\s+believe|i\s+suspect|suspect"
    r"|presumably|maybe|perhaps|might|could\s+be|draft(?:ed|ing)?|proposal|propose[sd]?"
    r"|proposing|rfc|suggest(?:s|ed|ing)?|tentative(?:ly)?|rumou?r(?:ed)?|considering|should"
    r"|whether|wonder(?:s|ed|ing)?|hunch(?:es)?|(?:i|we)\s+assume|assuming|assumption|speculat\w*"
    r"|unconfirmed|unverified|not\s+(?:yet\s+)?(?:confirmed|verified|decided)|undecided"
    r"|(?:to\s+be|needs?\s+to\s+be)\s+(?:confirmed|verified|checked)|tb[cd]|pending"
    r"|worth\s+(?:checking|confirming|asking)|(?:idea|option|sketch(?:ed)?)(?=\s*[:(])"
    r"|if\s+approved|needs?\s+(?:team\s+)?sign-?off|not\s+(?:her|his|their|my|the\s+user's|\w+'s)\s+words"
    r"|(?:agent'?s?|our)\s+(?:read|reading|take|impression)"
    # "my own read is that ...", "from watching how she works", "she hasn't said so herself"
    r"|my\s+own\s+(?:read|reading|take|impression|sense|guess|inference|hunch|view)"
    r"|my\s+(?:impression|sense|reading|observation)|(?:from|by)\s+(?:watching|observing)"
    r"|judging\s+(?:by|from)|going\s+by\s+(?:how|what)|based\s+on\s+(?:how|what)\s+(?:she|he|they)"
    r"|(?:has|have|had)n't\s+(?:said|told|confirmed|stated)|(?:has|have)\s+not\s+(?:said|told"
    r"|confirmed|stated)|never\s+(?:said|told\s+me|confirmed)|not\s+(?:something|anything)\s+"
    r"(?:she|he|they)\s+(?:said|told|stated))\b",
    re.I,
)
_HOSTILE = re.compile(
    r"\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above"
    r"|earlier|preceding)?\s*(?:instructions?|prompts?|rules|context)\b|\bsystem\s+prompt\b"
    r"|\byou\s+are\s+now\b|\bpretend\s+(?:to|that)\b|\bnew\s+instructions\b|\bjailbreak"
    r"|\b(?:say|tell\s+(?:the\s+user|everyone|them))\s+that\b|\bact\s+as\s+(?:if|a|an)\b",
    re.I,
)
_CODE = re.compile(
    r"```|[{}]|=>|::|\w\s*==\s*\S|\b\w+\s*=\s*[\"'\w\[(]|\w\([^)]*\)\s*[;:{]?\s*$|^\s*[$#>]\s"
    r"|</?[a-z]+>|\b(?:def|function)\s+\w+\s*\(|\bclass\s+\w+\s*[(:{]"
    r"|^\s*(?:import\s+[\w.]+|from\s+[\w.]+\s+import|(?:const|var|let)\s+\w+)"
    r"|\breturn\s+[^\s.,;]+\s*;",
    re.M,
)
_QUOTED = re.compile(r"[\"“”«»][^\"“”«»]{12,}[\"“”«»]")
_NEGATION = re.compile(
    r"\b(?:not|never|no\s+longer|hates?|hated|dislikes?|disliked|tried|trying|stopped"
    r"|uninstalled|instead\s+of|anymore|any\s+more)\b|n't\b",
    re.I,
)
_DROPPED_AFTER = re.compile(
    r"^\s*(?:(?:phase|era|days|port|cutover|setup|migration|modules?|config|stack|plan|experiment"
    r"|deployment|instance|cluster)\s+)?(?:is|are|was|were|got|gets|get|has\s+been|have\s+been)\s+"
    r"(?:now\s+|being\s+|getting\s+)?(?:over|gone|retired|abandoned|dropped|dead|deprecated"
    r"|decommissioned|ported|removed|replaced|slipped|done|finished|history|shut\s+down"
    r"|turned\s+off|phased\s+out|ripped\s+out|swapped\s+out|out)\b"
    r"|^\s*(?:out|->|→|=>|>)(?!\w)",
    re.I,
)
_DROPPED_BEFORE = re.compile(
    r"\b(?:quits?|quitting|gave\s+up|gives?\s+up|giving\s+up|ditch(?:es|ed|ing)?"
    r"|drop(?:s|ped|ping)?|abandon(?:s|ed|ing)?|dump(?:s|ed|ing)?|away\s+from|instead\s+of"
    r"|in\s+place\s+of|no\s+longer|no\s+more|done\s+with|off|over|replac(?:e|es|ed|ing)"
    r"|retir(?:e|es|ed|ing)|sunset(?:s|ted|ting)?|deprecat(?:e|es|ed|ing)|leaving|left"
    r"|(?:phas|swapp?|ripp?|mov|migrat|mov)(?:e|es|ed|ing|s)?\s+(?:out|off|away\s+from)"
    r"|(?:swap|trade|exchange)(?:s|d|ped|ping|ing)?|mov(?:e|es|ed|ing)\s+on\s+from"
    r"|rather\s+than|than|not)\s+(?:the\s+|my\s+|our\s+|its\s+|her\s+|his\s+)?$",
    re.I,
)
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:the\s+|my\s+|our\s+|its\s+)?$", re.I)
_TO_AFTER = re.compile(
    r"^\s+(?:(?:over\s+|across\s+|back\s+)?to|for|with|in\s+favou?r\s+of|,\s*to)\b", re.I
)

_FIRST_PERSON = re.compile(
    r"(?<![\w.])(?:I(?:'m|'ve|'d|'ll)?(?![\w.])|(?i:we|we're|we've|we'll|my|our|me|myself))(?![\w'])"
)
_EXCLUDED_BEFORE_ME = re.compile(
    r"\b(?:with|from|by|at|than|about|told|tell|asked|ask|(?<!up\s)to|like|gave|give|sent|send|showed"
    r"|show|called|emailed|pinged)\s+$",
    re.I,
)
_THIRD_PERSON = re.compile(r"\b(?:she|he|her|his)\b", re.I)
_EXCLUDED_BEFORE_PERSON = re.compile(r"\b(?:with|from|by|at|for|than|about|told)\s+$", re.I)

_CONDITION_TIME = (
    (
        re.compile(
            r"\b(?:in\s+the\s+mornings?|mornings|every\s+morning|of\s+a\s+morning|an?\s+morning"
            r"|before\s+(?:noon|lunch|midday|10|11|12)"
            r"|(?:at|with|for)\s+breakfast|first\s+thing|early\s+in\s+the\s+day)\b"
            r"|(?<=\d)\s*a\.?m\.?(?=\s|$|[.,;])|\ba\.m\.(?=\s|$|[,;)])",
            re.I,
        ),
        "in the morning",
    ),
    (
        re.compile(
            r"\b(?:in\s+the\s+afternoons?|afternoons|every\s+afternoon|after\s+(?:lunch|noon|midday))\b",
            re.I,
        ),
        "in the afternoon",
    ),
    (
        re.compile(
            r"\b(?:in\s+the\s+evenings?|evenings|every\s+evening|an?\s+evening|after\s+(?:dinner|work)|at\s+night"
            r"|(?:at|with)\s+dinner)\b",
            re.I,
        ),
        "in the evening",
    ),
    (re.compile(r"\bon\s+weekdays\b|\bduring\s+the\s+week\b", re.I), "on weekdays"),
    (re.compile(r"\bon\s+(?:the\s+)?weekends?\b|\bat\s+weekends\b", re.I), "on weekends"),
)
_CONDITION_WHEN = re.compile(
    r"\b(?:only\s+|just\s+)?(?:when|whenever|(?<!\ba\s)while)\s+(?P<rest>[^.;,:()]+)", re.I
)
#: "only for the staging cluster", "on client sites only", "just at work".
_CONDITION_ONLY = re.compile(
    r"\b(?:only|just|solely|exclusively|strictly)\s+(?P<p>for|on|in|at|with|during|inside|within)"
    r"\s+(?P<r>[^.;,:()]+)"
    r"|\b(?P<p2>for|on|in|at|with|during|inside|within)\s+(?P<r2>(?:(?!only\b)[^.;,:()])+?)"
    r"\s+(?:only|exclusively)\b",
    re.I,
)
_CONDITION_STRIP = re.compile(
    r"^(?:(?:I|I'm|we|we're|you|you're|she|she's|he|he's|they|they're|it|it's)\s+)?"
    r"(?:(?:am|is|are|work|works|working|connect|connects|connecting|am\s+working|is\s+working"
    r"|are\s+working|need\s+to\s+work|have\s+to\s+work|log\s+in|logged\s+in)\s+)?",
    re.I,
)

_SPLIT = re.compile(r";|(?<=[.!?])\s+(?=[A-Z\"'(])")
_ABBREV_END = re.compile(
    r"(?:\b[A-Z]|\b(?:Dr|Mr|Mrs|Ms|St|Sr|Jr|Snr|Jnr|vs|etc|e\.g|i\.e|approx|Inc|Ltd|No|[Ee]ng|[Ee]ff))\.$"
)

_TIME_ANCHOR = re.compile(
    r"\b(?:start(?:s|ed|ing)?|since|from|as\s+of|effective|cutover|first\s+day|last\s+day"
    r"|final\s+(?:working\s+)?day|until|till|back|return(?:s|ing)?|begin(?:s|ning)?|began"
    r"|moved|moving|joined|joins|switched|migrated|ends?|lasts?|scheduled|planned|went\s+live"
    r"|chang(?:ed|es|ing)\s+(?:over|to)|converted|adopted|took\s+up|picked\s+up|made\s+the\s+(?:switch|move|jump)"
    r"|go(?:es)?\s+live|(?:takes?|taking|took|comes?\s+into|in)\s+effect|kicks?\s+in|valid"
    r"|date|lift(?:s|ed)?|expir(?:e|es|ed|ing)|conclud(?:e|es|ed|ing)|(?:is|are|will\s+be)\s+over)\b",
    re.I,
)
_UNTIL_CUE = re.compile(
    r"\b(?:until|till|til|up\s+to|through|thru|ends?|ending|lasts?\s+until|returning|returns|return"
    r"|lift(?:s|ed|ing)?|expir(?:e|es|ed|ing)|conclud(?:e|es|ed|ing)|wraps?\s+up"
    r"|(?:is|are|will\s+be)\s+over"
    r"|is\s+back|be\s+back|'s\s+back|back\s+(?:at\s+work\s+|in\s+the\s+office\s+)?on"
    r"|(?:back|returns?|returning)\s+from|(?:(?<=[,;:(]\s)|(?<=[,;:(]))back(?=[\s,:]*$))\b"
    r"(?:[\s,:(—–-]+[\w']+){0,4}[\s,:(—–-]*$",
    re.I,
)
_FROM_CUE = re.compile(
    r"\b(?:since|from|starting|starts|started|as\s+of|effective|beginning|begins|began|start\s+date"
    r"|first\s+day"
    r"|(?:takes?|taking|took)\s+effect|kicks?\s+in)\b",
    re.I,
)
#: What makes a date in a leaving sentence the start of the old job, not its end.
_SINCE_CUE = re.compile(r"\b(?:since|joined|started|starting|hired)\b", re.I)
_LAST_DAY_CUE = re.compile(
    r"\b(?:last|final)\s+(?:working\s+|work\s+)?day\b(?:[\s,:(—–-]+[\w']+){0,5}[\s,:(—–-]*$", re.I
)
_STILL = re.compile(
    r"\b(?:still|remains?|remained|throughout|for\s+the\s+rest\s+of|all"
    r"|(?:for\s+)?the\s+(?:whole|entire)(?:\s+of)?(?=\s+(?:this|the\s+current)\s+(?:week|month|year)\b)"
    r"|for(?=\s+(?:this|the\s+current)\s+(?:week|month|year)\b))\b",
    re.I,
)
#: Perfect aspect: "been on Zed all this month" began then and goes on.
_PERFECT = re.compile(
    r"(?:^|\b(?:has|have|had)\s+|'ve\s+)been\b|\b(?:has|have|'ve)\s+\w+ed\b", re.I
)


#: A state said in the present ("is hosted on", "is living in", "'s on"): with "this month"
#: and no word of change, it holds for the month ("Ines is living in Madrid this month").
_STATE_NOW = re.compile(
    r"(?:\b(?:is|are|am)|'s|'re|'m)\s+(?:(?:still|currently|being)\s+)?"
    r"(?:living|based|staying|hosted|running|deployed|served|on|in|at)\b"
    r"|^\S+(?:\s+\S+)?\s+(?:living|staying)\s+in\b",  # "ines living in madrid this month"
    re.I,
)
_CHANGE_WORD = re.compile(
    r"\b(?:mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?|start(?:s|ed|ing)?|since|from|beg[ia]n\w*"
    r"|chang\w+|migrat\w+|bec[oa]me\w*|join\w*|new|now|as\s+of|effective|relocat\w+)\b",
    re.I,
)


#: The end of the period a statement is made in: "the end of this month".
_END_OF_THIS = re.compile(r"(?:the\s+)?end\s+of\s+(?:this|the\s+current)\s+(week|month|year)", re.I)


def _period_start(day: dt.date, unit: str) -> dt.date:
    """The first day of the week, month or year ``day`` is in."""
    if unit == "week":
        return day - dt.timedelta(days=day.weekday())
    return day.replace(day=1) if unit == "month" else day.replace(month=1, day=1)


def _bounded_period(clause: str) -> bool:
    """Whether a "this month" in ``clause`` bounds the claim at both ends: ``still``...,
    a note's ``(this month)``, or a state in the present with no word of change. An arrow
    is a change: ``editor → zed (this month)`` is when it changed, not how long it holds."""
    only = re.search(
        r"\bonly\b|\bfor\s+(?:this|the\s+current)\s+(?:week|month|year)|\b(?:to|till|until|thru|through)\b",
        clause,
        re.I,
    )
    if not only and (re.search(r"->|→", clause) or re.search(r"\bis\s+now\b", clause, re.I)):
        return False
    if re.search(
        r"\(\s*(?:for\s+)?(?:this|the\s+current)\s+(?:week|month|year)(?:\s+only)?\s*\)"
        r"|(?:this|the\s+current)\s+(?:week|month|year)\s*:"  # "LF hosting this month: X"
        r"|(?:this|the\s+current)\s+(?:week|month|year)\s+only\b"  # "on heroku this month only"
        r"|\b(?:to|until|till|through)\s+(?:the\s+)?(?:week|month|year)(?:'s)?[\s-]end\b",
        clause,
        re.I,
    ):
        return True
    if re.search(r"\b(?:the\s+)?(?:entire|whole|full)\s+(?:week|month|year)\b", clause, re.I):
        return True  # "this month (entire month)"
    cues = {m.group(0).lower() for m in _STILL.finditer(clause)}
    if not cues:
        return bool(_STATE_NOW.search(clause)) and not _CHANGE_WORD.search(clause)
    return cues != {"all"} or not _PERFECT.search(clause)


_KIND_WORDS: dict[str, str] = {
    "programming language": "language",
    "language": "language",
    "lang": "language",
    "editor": "editor",
    "text editor": "editor",
    "ide": "editor",
    "shell": "shell",
    "vpn": "vpn",
    "browser": "browser",
    "web browser": "browser",
    "terminal": "terminal",
    "terminal emulator": "terminal",
    "os": "os",
    "operating system": "os",
    "distro": "os",
    "drink": "drink",
    "beverage": "drink",
    "hot drink": "drink",
    "food": "food",
    "dish": "food",
    "snack": "food",
    "database": "database",
    "db": "database",
    "framework": "framework",
}
_KIND_RE = "|".join(sorted((re.escape(k) for k in _KIND_WORDS), key=len, reverse=True))

_KEY_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"\b(?:database|db|datastore|data\s+store|data\s+layer|storage)\b", re.I),
        "database",
    ),
    (
        re.compile(
            r"\b(?:hosting|hosted|host|deployed|deploys?|production|prod|served|runs\s+on)\b", re.I
        ),
        "hosting",
    ),
    (re.compile(r"\b(?:infrastructure|infra|iac|provision(?:ed|ing)?)\b", re.I), "iac_tool"),
    (re.compile(r"\b(?:ci|ci/cd|pipelines?|builds)\b", re.I), "ci"),
    (re.compile(r"\b(?:language|written\s+in)\b", re.I), "language"),
    (re.compile(r"\bframework\b", re.I), "framework"),
)
_KEY_NAMES = (
    r"(?P<key>database|db|datastore|hosting|host|hosting\s+provider|cloud|infrastructure\s+tool"
    r"|iac\s+tool|ci|ci\s+system|language|framework|orchestrator)"
)
_KEY_MAP: dict[str, str] = {
    "database": "database",
    "db": "database",
    "datastore": "database",
    "hosting": "hosting",
    "host": "hosting",
    "hosting provider": "hosting",
    "cloud": "hosting",
    "infrastructure tool": "iac_tool",
    "iac tool": "iac_tool",
    "ci": "ci",
    "ci system": "ci",
    "language": "language",
    "framework": "framework",
    "orchestrator": "orchestration",
}

#: Having the say: "if I get to choose", "whenever Priya can pick", "if it were up to me",
#: "left to my own devices", "if I had my way", "by choice".
_CHOICE = (
    r"(?:if|when(?:ever)?)\s+(?:I|we|she|he|they|you|[A-Z][\w.]*(?:\s+[A-Z][\w]*)?)\s+"
    r"(?:gets?|got|could|can|had|have|has|(?:was|were|am|is|are)\s+(?:allowed|free))\s+"
    r"(?:to\s+)?(?:choose|pick|decide)"
    r"|(?:if|when(?:ever)?)\s+it(?:'s|\s+is|\s+were|\s+was)\s+(?:up\s+to\s+(?:me|her|him|them|us)"
    r"|(?:my|her|his|their|our)\s+(?:call|choice|pick))"
    r"|left\s+to\s+(?:my|her|his|their|our)\s+own\s+devices"
    r"|if\s+(?:I|we|she|he|they)\s+had\s+(?:my|her|his|their|our)\s+(?:way|say)|by\s+choice"
)
#: A stated taste: the verbs and phrases of choosing, liking and leaning.
_PREFER_STRONG = re.compile(
    r"\b(?:prefer(?:s|red|ring|ably)?|preference|favou?rite|favou?rs?|favou?red|favou?ring"
    r"|of\s+choice|go-to|loves?|loving|fan\s+of|lik(?:e|es|ed)\s+(?:[\w.+#-]+\s+){0,2}(?:best|most|more\s+than)"
    r"|lean(?:s|ed|ing)?\s+(?:towards?|to|in\s+favou?r\s+of)|leant\s+towards?|leans\s+(?=[A-Z])"
    r"|(?:given|with|if\s+(?:I|we|she|he|they)\s+(?:had|have|get|got))\s+(?:the|a|free)\s+choice"
    r"|(?:first|top|default)\s+(?:choice|pick)|(?:would|'d)\s+(?:rather|sooner|pick|choose|go\s+for)"
    r"|partial\s+to|soft\s+spot\s+for|swears?\s+by|swore\s+by|can't\s+(?:live|do)\s+without"
    r"|can't\s+start\s+(?:the|my|her|his|a)\s+day\s+without|(?:always|usually)\s+(?:picks?|chooses?|reach(?:es)?\s+for|goes\s+for)"
    r"|opts?\s+for|opted\s+for|is\s+(?:really\s+|big\s+)?into|big\s+on|keen\s+on"
    rf"|{_CHOICE})\b",
    re.I,
)
#: A strong cue that names a habit rather than a taste (``my editor of choice is X``).
_HABIT_CUE = re.compile(r"of\s+choice|go-to|default", re.I)
_PREFER_CONSUME = re.compile(
    r"\b(?:drinks?|drinking|drank|sip(?:s|ping|ped)?|run(?:s|ning)?\s+on|back|again"
    r"|switched|switch(?:es|ing)?|quit|gave\s+up|only|now|these\s+days|nowadays"
    r"|sticks?\s+(?:to|with)|stuck\s+(?:to|with)|addicted|lives?\s+on|habit|every\s+day|daily"
    r"|always|usually|has|have|having|takes?|go(?:es)?\s+for|went\s+for|going\s+for"
    r"|reach(?:es|ed)?\s+for|grab(?:s|bed|bing)?|orders?|ordered|in\s+(?:my|her|his|their)\s+life"
    r"|fuel(?:led|ed)?\s+by|powered\s+by|over|starts?\s+(?:the|my|her|his)\s+day\s+with"
    r"|person|drinker|lover|fiend|addict|likes?|liked|enjoys?|enjoyed)\b",
    re.I,
)

_ROLE_HEADS = re.compile(
    r"\b(?:engineer|developer|dev|lead|manager|designer|director|head|architect|scientist"
    r"|analyst|cto|ceo|cfo|coo|cio|ciso|vp|president|officer|consultant|intern|administrator"
    r"|admin|specialist|researcher|owner|sre|programmer|tester|recruiter|coordinator|principal"
    r"|founder|co-founder|chief|advocate|evangelist|strategist|master|coach|lecturer|professor"
    r"|postdoc|technician|associate|partner|editor|writer|support|operator|steward|maintainer"
    r"|product\s+manager|marketer|accountant|counsel|secretary|treasurer|chair)s?\b",
    re.I,
)
_ROLE_STRONG = re.compile(
    r"\b(?:(?:job\s+)?title|position|role|job)(?:\s+(?:bump|change|update|upgrade))?\b"
    r"(?:,?\s+(?:from|as\s+of|starting|effective)\s+[^,]+,)?"
    r"\s*(?:will\s+be|is\s+now|is|was|has\s+been|becomes|:|(?:chang|switch|mov)(?:es|ed|ing|e)?\s+to"
    r"|goes\s+to|went\s+to)\s+(?:now\s+)?"
    r"|\bworks?\s+as\s+|\bworking\s+as\s+|\bpromoted\s+to\s+(?:the\s+)?(?:role\s+of\s+)?"
    # "takes on the role of X", "will take up the position of X", "steps into the post of X",
    # "in the role of X"
    r"|\b(?:(?:tak(?:e|es|en|ing)|took|assum(?:e|es|ed|ing)|accept(?:s|ed|ing)?|fill(?:s|ed|ing)?"
    r"|land(?:s|ed|ing)?|get(?:s|ting)?|got|step(?:s|ped|ping)?|mov(?:e|es|ed|ing)|appointed"
    r"|hold(?:s|ing)?|held"
    r"|named|hired|promoted|offered)\s+(?:up\s+|on\s+|over\s+|into\s+|to\s+)?|\b(?:in|into)\s+)"
    r"(?:the|a|an|her|his|their|my|our)\s+(?:new\s+)?(?:role|position|post|job|title|seat)"
    r"\s+(?:of|as)\s+"
    r"|\b(?:joins|joined|joining|join|hired|rehired|starts|started|starting|steps?\s+up|stepped\s+up"
    r"|took\s+over|takes\s+over|taking\s+over|returns|stays|continues|serves|served)\s+as\s+"
    r"|\b(?:becomes|became|become|becoming)\s+"
    r"|\b(?:step(?:s|ped|ping)?|mov(?:e|es|ed|ing))\s+up\s+to\s+(?:the\s+)?"
    r"|\b(?:named|appointed|made)\s+(?:as\s+)?"
    r"|\b(?:our|the\s+team's|the|her|his|their)\s+new\s+"
    r"|\bnew\s+(?:job|role|title)\s+(?:is|as)\s+"
    # "has held the Platform Lead role since Monday"
    r"|\b(?:hold|holds|held|holding)\s+(?:the|a|an)\s+(?=[\w\s-]{2,40}?\s(?:role|position|post|title)\b)",
    re.I,
)
#: Titles that lead something, and so may be scoped to a project: "lead for Lanternfish".
_LEAD_HEAD = re.compile(
    r"\b(?:lead|manager|owner|head|architect|maintainer|director|steward|coordinator|chair)s?\b",
    re.I,
)
#: What a project's name may be followed by before a possessive: "the Keelhaul platform's".
_PROJECT_NOUN = r"(?:platform|project|app|application|service|codebase|product|system)"
_ROLE_WEAK = re.compile(
    r"(?:\b(?:is|was|am|as|will\s+be|to\s+be|has\s+been|have\s+been)|'s|'m|'ll\s+be|'ve\s+been)"
    r"\s+(?:now\s+|still\s+)?",
    re.I,
)
_ARTICLE = re.compile(r"^(?:an?|the)\s+", re.I)
_TITLE_STOP = frozenset(
    {
        "at",
        "in",
        "on",
        "for",
        "from",
        "with",
        "since",
        "starting",
        "effective",
        "until",
        "and",
        "who",
        "which",
        "that",
        "as",
        "to",
        "by",
        "after",
        "before",
        "when",
        "but",
        "of",
        "role",
        "position",
        "post",
    }
)

_TIME_WORDS = frozenset(
    {
        "today",
        "yesterday",
        "tomorrow",
        "next",
        "last",
        "this",
        "effective",
        "now",
        "again",
        *MONTHS,
        *WEEKDAYS,
    }
)
_WORK_CUE = re.compile(
    r"\b(?:works?\s+(?:at|for)|worked\s+(?:at|for)|working\s+(?:at|for)|been\s+(?:with|at)"
    r"|employed\s+(?:by|at)|employer\s*(?::|(?:is|was|will\s+be|has\s+been)(?:\s+now)?)"
    r"|(?:joins|joined|joining|join|rejoins|rejoined)|start(?:s|ed|ing)?\s+(?:at|with|work\s+at)"
    r"|start(?:s|ed|ing)?\s+(?:(?:her|his|their|my|a|the)\s+)?(?:new\s+)?(?:job|role|position|work)"
    r"\s+(?:at|with)"
    r"|begins?\s+at|first\s+day\s+at|hired\s+(?:by|at)|is\s+with|signed\s+with"
    r"|new\s+(?:job|gig|position|role|employer)\s*(?:at|with|:|=|->|→)"  # "new job @ Kestrel"
    r"|(?:works?|working|worked)\s+with\s+us\s+(?:here\s+)?at"  # "works with us at Tidewater"
    r"|moves?\s+to|moved\s+to|moving\s+to|on\s+the"
    r"|(?:(?:is|'s|'m|am)\s+(?:now\s+|still\s+|also\s+)?|\bnow\s+)at"
    r"|(?:new\s+)?(?:work|workplace|job|gig|company)\s*:)\s*(?:the\s+)?",
    re.I,
)
_WORK_CLOSE_CUE = re.compile(
    r"\b(?:leaving|left|leaves|leave|quits?|quitting|resign(?:s|ed|ing)?\s+from|moves?\s+on\s+from"
    r"|moved\s+on\s+from|moving\s+on\s+from|departs?|departing|departed"
    r"|(?:last|final)\s+(?:working\s+|work\s+)?day\s+(?:at|with|in)"
    r"|departure\s+(?:of\s+(?:[^,;.]|\b[A-Z]\.){1,40}?\s+)?from|exit(?:s|ed|ing)?(?:\s+from)?"
    r"|(?:step(?:s|ped|ping)?|standing|stands|stood)\s+down\s+(?:from|at)"
    r"|retir(?:e|es|ed|ing)\s+from|(?:hands?|handed|handing)\s+in\s+(?:(?:her|his|their|my)\s+)?"
    r"(?:notice|resignation)\s+(?:at|to)"
    # "employment at Tidewater ends, last day 2026-01-30"
    r"|(?:employment|contract|tenure|job)\s+(?:at|with)(?=\s+(?:the\s+)?[\w.' -]{1,40}?\s+"
    r"(?:ends?|ended|ending|will\s+end|finish(?:es|ed)?|is\s+over|conclud\w+)\b))\s+(?:the\s+)?",
    re.I,
)
#: An organisation parting with someone: "Tidewater says goodbye to T. Wierzbicki".
_FAREWELL = re.compile(
    r"\b(?:says?|said|saying|bids?|bade|bidding|wish(?:es|ed)?)\s+(?:a\s+(?:fond\s+)?)?"
    r"(?:goodbye|farewell)\s+to\b|\bfarewell\s+to\b",
    re.I,
)
#: What makes "is at <organisation>" a visit, not a job.
_VISIT = re.compile(
    r"\b(?:today|tonight|tomorrow|this\s+(?:morning|afternoon|evening|week)|for\s+(?:a|an|the)\s+"
    r"|visit\w*|meeting|conference|on-?site|workshop|interview)\b",
    re.I,
)
#: Membership of an organisation's staff: "is a member of the Initech team", "will be
#: part of the Tidewater team", "a new addition to Globex". An unknown organisation
#: needs a staff word after it ("part of the Core Platform group" names no employer).
_MEMBER_CUE = re.compile(
    r"\b(?:(?:members?|part)\s+of\s+|on\s+)(?:the|our)\s+(?:team|staff|crew)\s+(?:at|of|with)\s+"
    r"(?:the\s+)?"  # "part of the team at Tidewater Labs"
    r"|\b(?:members?|part|staff(?:er)?|employee|hire|addition|recruit)\s+(?:of|at|to|with)\s+(?:the\s+)?",
    re.I,
)
_STAFF_AFTER = re.compile(
    r"\s+(?:team|staff|workforce|crew|family|company|organi[sz]ation|payroll|headcount)\b", re.I
)

#: Words for where someone lives.
_HOME_WORD = (
    r"(?:home(?:\s+(?:base|city|town|country|address))?|hometown|(?:place|city|country)\s+of"
    r"\s+residence|residence|current\s+city|permanent\s+address|primary\s+residence)"
)
#: Where someone lives as a home (never an office): ``the Lisbon apartment``.
_DWELLING = r"(?:apartment|flat|house|home|condo|loft|townhouse|bungalow|cottage|place)"
#: What says a dwelling became someone's home: keys, a lease, a purchase, moving in.
_MOVE_IN = re.compile(
    r"\b(?:keys?|lease|leased|bought|buying|purchased|rent(?:ed|ing|s)?|signed\s+for"
    r"|closed\s+on|moved\s+in|moving\s+in|move\s+in|moves\s+in|settled|unpacked|handed\s+over"
    r"|(?:we're|we\s+are|I'm|I\s+am|she's|he's|they're)\s+(?:finally\s+|now\s+|all\s+|officially\s+)?in"
    r"(?=\s*(?:[.!,;)]|$|(?:now|at\s+last|finally|officially)\b))"
    r"|our|my|her|his|their)\b",
    re.I,
)
_LIVE_CUE = re.compile(
    r"\b(?:lives?|living|lived|resides?|resided|residing|settled|staying|stays)\s+(?:now\s+|still\s+)?in\s+"
    r"|\bresidents?\s+(?:of|in)\s+"
    r"|\b"
    + _HOME_WORD
    + r"\s*(?:is|was|will\s+be|has\s+been|is\s+now|:|-|–|—)\s+(?:now\s+)?(?:in\s+)?"
    r"|\bbased\s+(?:in|out\s+of)\s+"
    r"|\b(?:moving|moved|moves|move|relocat(?:ing|ed|es|e)|emigrat(?:ing|ed|es|e))\s+(?:house\s+|home\s+|back\s+|over\s+|permanently\s+|abroad\s+)?"
    r"(?:from\s+\S+(?:\s+[A-Z]\S*)?\s+)?to\s+"
    r"|\bmoved\s+into\s+(?:the|our|a|my|her|his|their)\s+(?:new\s+)?"
    r"|\bstill\s+(?:living\s+|based\s+|staying\s+)?in\s+"
    r"|\bhome(?:\s+base)?\s+(?:for|of)\s+\S+(?:\s+[A-Z]\S*)?\s*(?::|is|was)\s+",
    re.I,
)
_LIVE_THERE = re.compile(r"\b(?:still\s+)?(?:living|lives?|based|staying)\s+there\b", re.I)
_MOVE_WORD = re.compile(r"\b(?:mov(?:e|es|ed|ing)|relocat\w+|emigrat\w+)\b", re.I)
_MOVE_OR_PLAN = re.compile(_MOVE_WORD.pattern + r"|\bplan(?:s|ned)?\b", re.I)
_PLAN_WORD = re.compile(r"mov(?:e|es|ing)|relocat(?:e|es|ing)|emigrat(?:e|es|ing)", re.I)
_PLACE_TRAIL = frozenset(
    {
        "office",
        "offices",
        "flat",
        "apartment",
        "house",
        "home",
        "too",
        "area",
        "city",
        "hq",
        "campus",
        "place",
        "now",
        "permanently",
        "team",
        "branch",
        "studio",
    }
)
_NOT_PLACE = frozenset(
    {
        "i",
        "we",
        "the",
        "our",
        "my",
        "it",
        "he",
        "she",
        "they",
        *WEEKDAYS,
        *MONTHS,
        "next",
        "last",
        "this",
        "today",
        "tomorrow",
        "yesterday",
    }
)
_CONNECTORS = frozenset(
    {"de", "da", "do", "del", "la", "le", "upon", "am", "on", "of", "&", "and", "-"}
)

# --------------------------------------------------------------------------- structures


@dataclass(frozen=True)
class _Hit:
    start: int
    end: int
    canonical: str
    kind: str  # person, project, organisation, place, thing, tool, first, third
    category: str | None = None


@dataclass
class _Finding:
    predicate: str
    value: str
    cue: int  # where the claim's cue is; the subject is sought around it
    cue_end: int
    subject_type: str  # person, project, any
    kind: str | None = None
    key: str | None = None
    subject: str | None = None
    closing: bool = False
    future_cue: bool = False
    aside: bool = False  # read from an appositive ("Ines, a Madrid resident, joins ..."): no time


@dataclass
class _Text:
    text: str
    folded: str
    names: list[_Hit]
    tools: list[_Hit]
    dropped: set[int]  # starts of tool hits the sentence sets aside
    people: list[_Hit]  # subject candidates (persons, first person, she/he)
    clauses: list[tuple[int, int]]
    label_end: int

    def clause_of(self, pos: int) -> int:
        for i, (a, b) in enumerate(self.clauses):
            if a <= pos < b:
                return i
        return len(self.clauses) - 1

    def clause_text(self, pos: int) -> tuple[int, str]:
        a, b = self.clauses[self.clause_of(pos)]
        return a, self.text[a:b]


# --------------------------------------------------------------------------- scanning


def _name_pattern(names: NameBook) -> tuple[re.Pattern[str], dict[str, Name]]:
    """The book's names as one pattern over folded text, and each folded name's entry;
    made once per book (a book drops it when a name is added)."""
    cached = names.derived.get("name_hits")
    if cached is None:
        by_key = {_fold_keep(k): v for k, v in names.names.items()}
        pattern = re.compile(rf"(?<![\w])(?:{_alternation(list(by_key))})(?![\w])")
        cached = names.derived["name_hits"] = (pattern, by_key)
    return cached  # type: ignore[return-value]


def _name_hits(text: str, folded: str, names: NameBook) -> list[_Hit]:
    hits: list[_Hit] = []
    if names.names:
        hits = _book_hits(text, folded, names)
    for m in _CITY_RE.finditer(folded):  # a city is a place however cased: "ines: madrid"
        if _overlaps(m.start(), m.end(), hits) is None:
            city = _CITY_KEYS[" ".join(m.group(0).split())]
            typed = " ".join(text[m.start() : m.end()].split())
            if _fold_keep(typed) == _fold_keep(city):  # the writer's spelling, capitalised
                city = typed if not typed.islower() else city
            known = names.lookup(city)
            if known is None or known.kind == "place":
                hits.append(_Hit(m.start(), m.end(), city, "place"))
    return sorted(hits, key=lambda h: h.start)


def _book_hits(text: str, folded: str, names: NameBook) -> list[_Hit]:
    pattern, by_key = _name_pattern(names)
    hits: list[_Hit] = []
    for m in pattern.finditer(folded):
        entry: Name | None = by_key.get(" ".join(m.group(0).split()))
        if entry is None:
            continue
        if m.group(0) == "i" or (text[m.start() : m.end()] == "I" and entry.kind == "person"):
            continue
        end = _person_end(text, m.start(), m.end(), entry, names)
        if end is not None:
            hits.append(_Hit(m.start(), end, entry.canonical, entry.kind))
    return sorted(hits + _initial_hits(text, names, hits), key=lambda h: h.start)


def _person_end(text: str, start: int, end: int, entry: Name, names: NameBook) -> int | None:
    """Where the name found at ``text[start:end]`` ends: past the surname or its initial
    after a first name ("Ines D.", "Tom Wierzbicki"); None when another surname follows
    ("Tom Dalton" is someone else than Tomasz Wierzbicki)."""
    if entry.kind != "person" or " " not in entry.canonical:
        return end
    surname = entry.canonical.split()[-1]
    after = re.match(r"\s+([A-Z])(?:\.|[\w'-]*)", text[end:])
    if after is None:
        return end
    word = after[0].strip()
    if surname.startswith(after[1]) and (
        word.endswith(".") or _fold_keep(word) == _fold_keep(surname)
    ):
        return end + after.end()
    if " " in text[start:end].strip():
        return end  # a full name already
    span = _cap_span(text, end + after.start(1), max_words=4)
    other = (
        span is not None
        and re.fullmatch(r"[A-Z][a-z][\w'-]+", word) is not None
        and word.lower() not in _TIME_WORDS
        and word.lower()[:3] not in _DATE_ABBREV
        and names.lookup(word) is None
        and _fold_keep(word) not in _GAZ_FOLDED
        and not _ROLE_HEADS.search(text[span[0] : span[1]])
    )
    return None if other else end


def _initials(names: NameBook) -> dict[str, str]:
    """Each capital that begins exactly one known person's name (never ``I``), and whose."""
    cached = names.derived.get("initials")
    if cached is None:
        people: dict[str, set[str]] = {}
        for entry in names.names.values():
            if entry.kind == "person" and entry.canonical[:1].isalpha():
                people.setdefault(entry.canonical[0].upper(), set()).add(entry.canonical)
        cached = names.derived["initials"] = {
            k: next(iter(v)) for k, v in people.items() if len(v) == 1 and k not in ("I", "A")
        }
    return cached  # type: ignore[return-value]


#: What a weekday's or a month's name starts with ("Mon", "Sept"): never a surname.
_DATE_ABBREV = frozenset(w[:3] for w in (*WEEKDAYS, *MONTHS))
#: A lone initial standing for a person, a word or a possessive after it: "P. is out".
_INITIAL = re.compile(r"(?<![\w.])([A-Z])(?:\.(?=\s+[a-z]|'s\b|\)|:)|(?=\s+[a-z]+s\b))")


def _initial_hits(text: str, names: NameBook, taken: list[_Hit]) -> list[_Hit]:
    """A lone initial ("P. will be out on leave") as the one known person it can be."""
    initials = _initials(names)
    found: list[_Hit] = []
    for m in _INITIAL.finditer(text):
        who = initials.get(m.group(1))
        if who and _overlaps(m.start(), m.end(), taken) is None:
            found.append(_Hit(m.start(), m.end(), who, "person"))
    return found


def _tool_hits(text: str, folded: str, taken: list[_Hit]) -> list[_Hit]:
    found: list[_Hit] = []
    for m in _GAZ_RE.finditer(folded):
        sw = _GAZ_FOLDED.get(" ".join(m.group(0).split()))
        if sw:
            found.append(_Hit(m.start(), m.end(), sw.canonical, "tool", sw.category))
    for m in _GAZ_EXACT_RE.finditer(text):
        sw = _GAZ_EXACT.get(" ".join(m.group(0).split()))
        if sw:
            found.append(_Hit(m.start(), m.end(), sw.canonical, "tool", sw.category))
    found.sort(key=lambda h: (h.start, -(h.end - h.start)))
    out: list[_Hit] = []
    for hit in found:
        if any(hit.start < o.end and o.start < hit.end for o in (*taken, *out)):
            continue
        out.append(hit)
    return out


def _dropped(text: str, tools: list[_Hit]) -> set[int]:
    out: set[int] = set()
    for hit in tools:
        before, after = text[: hit.start], text[hit.end :]
        from_to = _FROM_BEFORE.search(before[-20:]) and _TO_AFTER.match(after)
        if _DROPPED_BEFORE.search(before[-40:]) or _DROPPED_AFTER.match(after) or from_to:
            out.add(hit.start)
    return out


def _clauses(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SPLIT.finditer(text):
        if m.group(0) != ";" and _ABBREV_END.search(text[start : m.start()]):
            continue
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    return [s for s in spans if s[1] > s[0]] or [(0, len(text))]


def _label_end(text: str) -> int:
    """End of a leading ``Label:`` (``My read:``, ``Heads up:``), or 0."""
    m = re.match(r"^\s*((?:\b[A-Z]\.|[^:;.()]){1,40}(?:\([^)]{0,60}\))?[^:;.()]{0,20}):\s", text)
    if m and len(re.sub(r"\([^)]*\)", " ", m.group(1)).split()) <= 6:
        return m.end()
    return 0


def _people(text: str, names: list[_Hit], label_end: int) -> list[_Hit]:
    out: list[_Hit] = []
    for hit in names:
        if hit.kind != "person":
            continue
        if _EXCLUDED_BEFORE_PERSON.search(text[max(0, hit.start - 12) : hit.start]):
            continue
        out.append(hit)
    for m in _FIRST_PERSON.finditer(text):
        if m.start() < label_end or any(h.start <= m.start() < h.end for h in names):
            continue
        if re.search(r",\s*$", text[: m.start()]) and re.match(
            r"(?:our|my)\s+[\w\s'-]{1,40},", text[m.start() :], re.I
        ):
            continue  # "Ines Duarte, our new colleague, lives in ...": an aside about her
        # "me" is the subject only as the one it is for: "no more coffee for me", not
        # "Priya told me", "had lunch with me"
        if m.group(0).lower() in {"me", "myself"} and _EXCLUDED_BEFORE_ME.search(
            text[max(0, m.start() - 12) : m.start()]
        ):
            continue
        # "I think/guess Maren ..." frames someone else's statement
        if re.match(
            r"\s+(?:think|guess|believe|suspect|reckon|assume|heard|hear|noticed)\b",
            text[m.end() :],
            re.I,
        ):
            continue
        out.append(_Hit(m.start(), m.end(), "", "first"))
    for m in _THIRD_PERSON.finditer(text):
        earlier = [h for h in names if h.kind == "person" and h.end <= m.start()]
        if earlier:
            out.append(_Hit(m.start(), m.end(), earlier[-1].canonical, "third"))
    out.sort(key=lambda h: h.start)
    return out


def _scan(text: str, names: NameBook) -> _Text:
    folded = _fold_keep(text)
    name_hits = _name_hits(text, folded, names)
    tools = _tool_hits(text, folded, name_hits)
    label_end = _label_end(text)
    return _Text(
        text=text,
        folded=folded,
        names=name_hits,
        tools=tools,
        dropped=_dropped(text, tools),
        people=_people(text, name_hits, label_end),
        clauses=_clauses(text),
        label_end=label_end,
    )


# --------------------------------------------------------------------------- spans


def _words_at(text: str, pos: int) -> list[tuple[int, int]]:
    return [(m.start() + pos, m.end() + pos) for m in re.finditer(r"[^\s,;:()]+", text[pos:])]


def _clean_word(word: str) -> str:
    return word.rstrip(".!?'\"").removesuffix("'s").removesuffix("’s")


def _cap_span(text: str, pos: int, *, max_words: int = 4) -> tuple[int, int] | None:
    """The capitalised name starting at ``pos`` (after an optional determiner), or None."""
    words = _words_at(text, pos)
    i = 0
    while i < len(words) and text[words[i][0] : words[i][1]].lower() in {
        "the",
        "our",
        "my",
        "a",
        "an",
        "their",
        "his",
        "her",
        "its",
    }:
        i += 1
    taken: list[tuple[int, int]] = []
    while i < len(words) and len(taken) < max_words:
        a, b = words[i]
        word = _clean_word(text[a:b])
        if word and word[0].isupper() and word.lower() not in _NOT_PLACE:
            taken.append((a, a + len(word)))
            if text[a:b] != word:  # ends with punctuation or a possessive: the name ends here
                break
            if text[b : b + 1] in {",", ";", ":", ")"}:
                break
        elif taken and word.lower() in _CONNECTORS and i + 1 < len(words):
            nxt = _clean_word(text[words[i + 1][0] : words[i + 1][1]])
            if not (nxt[:1].isupper() and nxt.lower() not in _NOT_PLACE):
                break
        else:
            break
        i += 1
    if not taken:
        return None
    return taken[0][0], taken[-1][1]


def _overlaps(a: int, b: int, hits: list[_Hit]) -> _Hit | None:
    for h in hits:
        if a < h.end and h.start < b:
            return h
    return None


def _negated(text: str, cue: int, clause_start: int) -> bool:
    window = text[max(clause_start, cue - 25) : cue + 1]
    return _NEGATION.search(window) is not None


# --------------------------------------------------------------------------- detectors


def _find_status(tx: _Text) -> _Finding | None:
    t = tx.text
    rules: tuple[tuple[re.Pattern[str], str, str], ...] = (
        (
            re.compile(
                r"\b(?:parental|maternity|paternity|sick|medical|annual|unpaid|long-term|extended|study"
                r"|compassionate|garden)\s+leave\b|\b(?:on|starts?|starting|started|begins?|began|goes\s+on"
                r"|going\s+on|went\s+on|takes?|taking|took)\s+(?:(?:her|his|their|my|a|some)\s+)?leave\b"
                r"|\bOOO\b|\bout\s+of\s+(?:the\s+)?office\b"
                r"|\b(?:off|away|out)\s*(?:\(\s*|[-–—,:]\s*)(?:on\s+)?leave\b"  # "off (leave)"
                # "back from leave on 1 March" (dated: the leave ends then)
                r"|\b(?:back|returns?|returning)\s+from\s+(?:(?:her|his|their|my)\s+)?(?:\w+\s+)?leave\b"
                r"(?=.*\d)",
                re.I,
            ),
            "on_leave",
            "person",
        ),
        (
            re.compile(
                r"\bon\s+(?:holiday|holidays|vacation|pto|annual\s+leave\s+holiday)\b|\b(?:starts?|starting"
                r"|begins?|off)\s+(?:(?:her|his|their|my|a)\s+)?(?:holiday|vacation)\b",
                re.I,
            ),
            "on_holiday",
            "person",
        ),
        (re.compile(r"\b(?:off|out)\s+sick\b|\bon\s+sick\s+leave\b", re.I), "sick", "person"),
        (
            re.compile(
                r"\b(?:code|merge|feature|release|deploy(?:ment)?|change)\s+freeze\b|\bfrozen\b"
                r"|\bno\s+(?:merges|deploys|deployments|releases)\b|\bfreez(?:e|es|ing)\b",
                re.I,
            ),
            "code freeze",
            "project",
        ),
    )
    for pattern, value, subject_type in rules:
        m = pattern.search(t)
        if m:
            a, _ = tx.clause_text(m.start())
            if _NEGATION.search(t[max(a, m.start() - 15) : m.start()]):
                continue
            return _Finding("status", value, m.start(), m.end(), subject_type)
    return None


def _kind_named(text: str) -> str | None:
    m = re.search(
        rf"\b(?:favou?rite|preferred|go-to|usual|daily)\s+(?P<k>{_KIND_RE})\b|\b(?P<k2>{_KIND_RE})\s+of\s+choice\b",
        text,
        re.I,
    )
    if not m:
        return None
    word = " ".join((m["k"] or m["k2"]).lower().split())
    return _KIND_WORDS.get(word)


def _live_tools(tx: _Text, *, consumable: bool) -> list[_Hit]:
    return [
        h
        for h in tx.tools
        if h.start not in tx.dropped and ((h.category in _CONSUMABLE) == consumable)
    ]


def _find_prefers(tx: _Text) -> _Finding | None:
    t = tx.text
    strong = _PREFER_STRONG.search(t)
    if strong:
        a, b = tx.clauses[tx.clause_of(strong.start())]
        live = [h for h in tx.tools if h.start not in tx.dropped]
        same = [h for h in live if a <= h.start < b]
        after = [h for h in same if h.start >= strong.start()]
        chosen = (after or same or live)[:1]
        verb = not _HABIT_CUE.match(strong.group(0))
        if chosen and chosen[0].category is not None:
            pick = chosen[0]
            kind = _kind_named(t) or pick.category
            # "my editor of choice is X" is what she uses; a language or drink is a taste
            predicate = "prefers" if verb or pick.category in _TASTES else "uses"
            return _Finding(
                predicate, pick.canonical, strong.start(), strong.end(), "person", kind=kind
            )
    # "Rust over Go for new code", "Coffee over anything else": the first is the taste
    for pick in tx.tools:
        over = re.match(
            r"\s+over\s+(?:the\s+|my\s+)?(?P<w>anything|everything|all|\S)", t[pick.end :], re.I
        )
        if pick.start in tx.dropped or over is None or pick.category is None:
            continue
        if over["w"].lower() in {"anything", "everything", "all"} or any(
            h.start == pick.end + over.start("w") and h.category == pick.category for h in tx.tools
        ):
            return _Finding(
                "prefers", pick.canonical, pick.start, pick.end, "person", kind=pick.category
            )
    drinks = _live_tools(tx, consumable=True)
    if drinks:
        cue = _PREFER_CONSUME.search(t)
        if cue and not _negated(t, drinks[0].start, 0):
            pick = drinks[0]
            kind = _kind_named(t) or pick.category or "drink"
            at = min(cue.start(), pick.start)
            return _Finding(
                "prefers", pick.canonical, at, max(cue.end(), pick.end), "person", kind=kind
            )
    return None


def _find_tool(tx: _Text) -> _Finding | None:
    t = tx.text
    live = _live_tools(tx, consumable=False)
    projects = [h for h in tx.names if h.kind == "project"]
    if live:
        pick = live[0]
        category = pick.category or ""
        a, _ = tx.clause_text(pick.start)
        if projects and category in PROJECT_KEYS:
            project_pick = next(h for h in live if h.category in PROJECT_KEYS)
            key = PROJECT_KEYS[project_pick.category or ""]
            return _Finding(
                "project_attribute",
                project_pick.canonical,
                project_pick.start,
                project_pick.end,
                "project",
                key=key,
            )
        if _negated(t, pick.start, a):
            return None
        named = re.search(
            rf"\b(?:my|her|his|their|our)\s+(?P<k>{_KIND_RE})s?\b|\bswitched\s+(?P<k2>{_KIND_RE})s\b",
            t,
            re.I,
        )
        kind = (
            _KIND_WORDS.get(" ".join((named["k"] or named["k2"]).lower().split()))
            if named
            else None
        )
        if kind in {"drink", "food", None} or (kind == "database" and category != "database"):
            kind = category
        cue = min(pick.start, named.start()) if named else pick.start
        return _Finding("uses", pick.canonical, cue, pick.end, "person", kind=kind)
    # an unknown tool the sentence names the kind of: "my editor is Helix", "LF's database is Foo"
    m = re.search(
        rf"\b(?:my|her|his|their|our)\s+(?P<k>{_KIND_RE})\s+(?:is|has\s+been|was)\s+(?:now\s+)?",
        t,
        re.I,
    )
    if m:
        span = _cap_span(t, m.end(), max_words=3)
        kind = _KIND_WORDS.get(" ".join(m["k"].lower().split()))
        if span and kind and kind not in _CONSUMABLE:
            return _Finding("uses", t[span[0] : span[1]], m.start(), span[1], "person", kind=kind)
    for project in projects:
        m = re.compile(
            rf"^(?:'s|’s)?\s+{_KEY_NAMES}\s+(?:is|will\s+be|has\s+been|was)\s+(?:now\s+)?", re.I
        ).match(t[project.end :])
        if m:
            span = _cap_span(t, project.end + m.end(), max_words=3)
            if span and not _overlaps(span[0], span[1], tx.names):
                key = _KEY_MAP[" ".join(m["key"].lower().split())]
                return _Finding(
                    "project_attribute",
                    t[span[0] : span[1]],
                    project.start,
                    span[1],
                    "project",
                    key=key,
                )
    return None


def _title_at(text: str, pos: int, *, strong: bool, projects: list[_Hit]) -> str | None:
    """A job title starting at ``pos`` (``Senior Software Engineer``), or None."""
    start = pos
    rest = text[pos:]
    art = _ARTICLE.match(rest)
    bare = pos + art.end() if art else pos
    prefix = ""
    for p in projects:
        # "Keelhaul's Tech Lead", "the Keelhaul tech lead", "the Keelhaul platform's tech
        # lead" (an alias with its article), "the Lanternfish project's lead": all
        # "<Project> <Title>"
        owner = (
            re.match(rf"(?:\s+{_PROJECT_NOUN})?(?:'s|’s)\s+|\s+", text[p.end :])
            if p.start in {pos, bare}
            else None
        )
        if owner:
            prefix, bare, strong = f"{p.canonical} ", p.end + owner.end(), True
    pos = bare
    # a lower-case leading title scoped to a project is a title too: "the tech lead for
    # Lanternfish", "the release manager of the Keelhaul platform"
    scoped = re.match(
        r"((?:[a-z][\w-]*\s+){0,3}[a-z][\w-]*)\s+(?:of|for|on)\s+(the\s+)?", text[pos:]
    )
    if not strong and scoped and _LEAD_HEAD.search(scoped[1]):
        at = pos + scoped.end()
        strong = any(p.start in {at, at - len(scoped[2] or "")} for p in projects)
    words = _words_at(text, pos)
    taken: list[str] = []
    end = pos
    for i, (a, b) in enumerate(words):
        if text[end if taken else pos : a].strip():
            break  # punctuation between words: "(Maren Okafor)"
        raw = text[a:b]
        word = raw.rstrip(".!?")
        low = word.lower()
        if low in _TIME_WORDS:
            break
        if low in _TITLE_STOP and not (low == "of" and i + 1 < len(words) and taken):
            break
        if low == "of":
            nxt = text[words[i + 1][0] : words[i + 1][1]].rstrip(".,;!?")
            if any(p.start == words[i + 1][0] for p in projects) or not nxt[:1].isupper():
                break
        if not strong and not word[:1].isupper() and low != "of":
            break
        if strong and not (word[:1].isupper() or word[:1].isalpha()):
            break
        taken.append(word)
        end = a + len(word)
        if raw != word or text[b : b + 1] in {",", ";", ":"} or len(taken) >= 6:
            break
    if not taken:
        return None
    while taken and taken[-1].lower() == "of":
        taken.pop()
    title = " ".join(taken)
    if not _ROLE_HEADS.search(title):
        return None
    if title == title.lower():
        title = " ".join(w if w in {"of", "and"} else w[:1].upper() + w[1:] for w in title.split())
    if not prefix and _LEAD_HEAD.search(title):
        # "will lead Keelhaul as Tech Lead": the project it leads scopes it
        for p in projects:
            if re.fullmatch(r"(?:\s+" + _PROJECT_NOUN + r")?\s+as\s+", text[p.end : start]) and (
                re.search(
                    r"\b(?:lead|leads|leading|led|head|heads|heading|run|runs|running)"
                    r"\s+(?:the\s+)?$",
                    text[: p.start],
                    re.I,
                )
            ):
                prefix = f"{p.canonical} "
                break
    title = prefix + title
    # "Tech Lead of Keelhaul", "tech lead of the Keelhaul platform", "lead for Lanternfish"
    # (for/on only scope a leading title: "Backend Engineer on the Keelhaul team" is not)
    of_project = re.match(r"\s+(?P<prep>of|for|on)\s+", text[end:])
    if of_project and not prefix:
        at = end + of_project.end()
        at_bare = at + 4 if text[at : at + 4].lower() == "the " else at
        leads = of_project["prep"] == "of" or _LEAD_HEAD.search(title) is not None
        for p in projects:
            if p.start in {at, at_bare} and leads:
                title = f"{p.canonical} {title}"
                break
    return title


def _find_role(tx: _Text) -> _Finding | None:
    t = tx.text
    projects = [h for h in tx.names if h.kind == "project"]
    # "Keelhaul's tech lead is Ines" / "the new Lanternfish lead is Priya"
    for project in projects:
        m = re.match(
            r"(?:'s|’s)\s+(?:new\s+)?(?P<title>(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:is|will\s+be|becomes)\s+(?:now\s+)?",
            t[project.end :],
            re.I,
        )
        if m and _ROLE_HEADS.search(m["title"]):
            after = project.end + m.end()
            person = next((h for h in tx.names if h.kind == "person" and h.start == after), None)
            if person:
                title = " ".join(w[:1].upper() + w[1:] for w in m["title"].split())
                return _Finding(
                    "role",
                    f"{project.canonical} {title}",
                    project.start,
                    after,
                    "person",
                    subject=person.canonical,
                )
    # "goes from Senior Software Engineer to Staff Engineer", "promoted from L4 to Senior
    # Engineer": the title held now is the one after "to"
    for m in re.finditer(
        r"\bfrom\s+(?P<old>(?:an?\s+|the\s+)?[\w-]+(?:\s+[\w-]+){0,5}?)\s+(?:to|into)\s+", t, re.I
    ):
        new = _title_at(t, m.end(), strong=True, projects=projects)
        if new is None or _negated(t, m.start(), 0):
            continue
        old_title = _title_at(t, m.start("old"), strong=True, projects=projects)
        change = re.search(
            r"\b(?:go(?:es|ing)?|went|gone|mov(?:e|es|ed|ing)|promot\w+|chang\w+|switch\w*"
            r"|transition\w*|step(?:s|ped)?\s+up|bump(?:s|ed)?|rises?|rose|advanc\w+)\s+(?:up\s+)?$",
            t[: m.start()],
            re.I,
        )
        if old_title or change:
            return _Finding("role", new, m.start(), m.end() + len(new), "person")
    for strong, pattern in ((True, _ROLE_STRONG), (False, _ROLE_WEAK)):
        for m in pattern.finditer(t):
            found = _title_at(t, m.end(), strong=strong, projects=projects)
            if found and not _negated(t, m.start(), 0):
                return _Finding("role", found, m.start(), m.end(), "person")
    return None


def _org_at(tx: _Text, pos: int) -> tuple[str, int] | None:
    """The organisation named at ``pos``: a known one, or an unknown capitalised span."""
    for h in tx.names:
        if h.start == pos:
            if h.kind == "organisation":
                return h.canonical, h.end
            return None
    span = _cap_span(tx.text, pos, max_words=4)
    if span is None or span[0] != pos:
        return None
    if _overlaps(span[0], span[1], tx.names) or _overlaps(span[0], span[1], tx.tools):
        return None
    value = tx.text[span[0] : span[1]]
    return value, span[1]


def _find_works_at(tx: _Text) -> _Finding | None:
    t = tx.text
    orgs = [h for h in tx.names if h.kind == "organisation"]
    known = {o.canonical for o in orgs}
    for m in _WORK_CLOSE_CUE.finditer(t):
        named = _org_at(tx, m.end())
        if named:
            # "the departure of T. Wierzbicki from Tidewater": the one leaving is inside
            inside = [h for h in tx.names if h.kind == "person" and m.start() <= h.start < m.end()]
            return _Finding(
                "works_at",
                named[0],
                m.start(),
                named[1],
                "person",
                closing=True,
                subject=inside[0].canonical if inside else None,
            )
    # "Tidewater Labs says goodbye to Tomasz, whose last day is 30 January"
    for m in _FAREWELL.finditer(t):
        org = next((o for o in orgs if o.end <= m.start()), None)
        person = next((h for h in tx.names if h.kind == "person" and h.start >= m.end()), None)
        if org and person and not _negated(t, m.start(), 0):
            return _Finding(
                "works_at",
                org.canonical,
                m.start(),
                m.end(),
                "person",
                closing=True,
                subject=person.canonical,
            )
    for m in _MEMBER_CUE.finditer(t):
        named = _org_at(tx, m.end())
        if named is None or _negated(t, m.start(), 0):
            continue
        if named[0] not in known and not _STAFF_AFTER.match(t[named[1] :]):
            continue
        return _Finding("works_at", named[0], m.start(), named[1], "person")
    for m in _WORK_CUE.finditer(t):
        cue = m.group(0).lower()
        named = _org_at(tx, m.end())
        if named is None:
            continue
        # "is at X" and "job: X" name an employer only when X is known
        at = re.match(
            r"(?:is|'s|'m|am|now)\b|(?:new\s+)?(?:work|workplace|job|gig|company)\s*:", cue
        )
        if (cue.startswith(("move", "moving", "on the")) or at) and named[0] not in known:
            continue  # "moved to Lisbon" is a home, "on the Keelhaul team" a team, "is at Lisbon"
        if at and _VISIT.search(t[named[1] :]):
            continue  # "is at Tidewater today for a meeting" is a visit
        if cue.startswith("on the") and not re.match(r"\s+payroll\b", t[named[1] :], re.I):
            continue
        if _negated(t, m.start(), 0):
            continue
        return _Finding("works_at", named[0], m.start(), named[1], "person")
    for org in orgs:
        before, after = t[: org.start], t[org.end :]
        job_at = re.search(
            r"\b(?:is|was|are|'s)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,4}(?:at|for|with)\s+$",
            before,
            re.I,
        )
        employee = re.search(r"\b(?:an?|the)\s+$", before, re.I) and re.match(
            r"\s+(?:employee|staffer|hire)\b", after, re.I
        )
        if job_at or employee:
            return _Finding("works_at", org.canonical, org.start, org.end, "person")
        if re.match(
            r"\s+(?:people|staff|employees|team\s+members|folks|staffers)\s*:", after, re.I
        ):
            return _Finding("works_at", org.canonical, org.end, org.end, "person")
        # "Tomasz Wierzbicki, Tidewater Labs, ..." (a directory line)
        person = next(
            (
                h
                for h in tx.names
                if h.kind == "person"
                and re.fullmatch(  # "T. Wierzbicki (Tidewater Labs)" too
                    r",\s*(?:[a-z][\w -]{0,40},\s*)?|\s*\(\s*", t[h.end : org.start]
                )
            ),
            None,
        )
        if person:
            # "Tom Wierzbicki, Tidewater - last day 30 Jan 2026" (a leavers' list)
            leaving = re.match(r"\s*[-–—,:(]\s*(?:last|final)\s+(?:working\s+)?day\b", after, re.I)
            return _Finding(
                "works_at",
                org.canonical,
                person.start,
                org.end,
                "person",
                closing=leaving is not None,
                subject=person.canonical,
            )
    return None


def _place_at(tx: _Text, pos: int) -> tuple[str, int] | None:
    known = next((h for h in tx.names if h.kind == "place" and h.start == pos), None)
    if known is not None:  # a place the brain knows, however cased: "ines -> madrid"
        return known.canonical, known.end
    span = _cap_span(tx.text, pos, max_words=4)
    if span is None:
        return None
    hit = _overlaps(span[0], span[1], [*tx.names, *tx.tools])
    if hit is not None and hit.kind != "place":
        return None
    words = tx.text[span[0] : span[1]].split()
    while len(words) > 1 and words[-1].lower() in _PLACE_TRAIL:
        words.pop()
    value = " ".join(words)
    if hit is not None:
        value = hit.canonical
    return value, span[1]


def _aside(text: str, cue: int) -> bool:
    """Whether ``cue`` opens an appositive: ``Ines Duarte, a resident of Braga, joins ...``."""
    opened = re.search(r",\s*(?:an?|the|our|now\s+an?)?\s*$", text[:cue])
    return bool(opened and "," in text[cue:])


_MOVE_DONE_AT = re.compile(
    r"\s+(?:move|relocation)\s+(?:is\s+|was\s+)?(?:done|complete|completed|finished|happened)\b",
    re.I,
)
_MOVE_DONE = re.compile(r"\s*[^\W\d_][\w'-]*" + _MOVE_DONE_AT.pattern, re.I)


def _find_lives_in(tx: _Text) -> _Finding | None:
    t = tx.text
    for m in re.finditer(r"\b([A-Z][\w']*(?:\s+[A-Z][\w']*)?)-based\b", t):
        hit = _overlaps(m.start(1), m.end(1), [*tx.names, *tx.tools])
        if hit is None or hit.kind == "place":
            value = hit.canonical if hit else m.group(1)
            return _Finding("lives_in", value, m.start(), m.end(), "person")
    for m in re.finditer(r"-based\b", t):  # "tom is rotterdam-based": a place the brain knows
        hit = next((h for h in tx.names if h.kind == "place" and h.end == m.start()), None)
        if hit is not None:
            return _Finding("lives_in", hit.canonical, hit.start, m.end(), "person")
    home = re.search(
        r"\b([A-Z][\w']*(?:\s+[A-Z][\w']*)?)\s+(?:has\s+been|is|was|became|becomes|will\s+be)\s+"
        r"(?:now\s+)?(?P<owner>my|her|his|their|our|[A-Z][\w.]*(?:\s+[A-Z][\w]*)?'s)\s+"
        r"(?:new\s+)?(?:" + _HOME_WORD + r"|base)\b",
        t,
    )
    if home:
        place = _place_at(tx, home.start(1))
        if place:
            return _Finding("lives_in", place[0], home.start("owner"), home.end(), "person")
    for m in _LIVE_CUE.finditer(t):
        place = _place_at(tx, m.end())
        if place is None:
            continue
        a, _ = tx.clause_text(m.start())
        if _negated(t, m.start(), a):
            continue
        moving = _MOVE_WORD.match(m.group(0)) is not None
        inside = [h for h in tx.names if h.kind == "person" and m.start() <= h.start < m.end()]
        return _Finding(
            "lives_in",
            place[0],
            m.start(),
            place[1],
            "person",
            subject=inside[0].canonical if inside else None,
            future_cue=moving,
            aside=_aside(t, m.start()),
        )
    # "I. Duarte, a Madrid resident, ..." / "a Berlin local"
    for m in re.finditer(
        r"\b(?:an?|the|our|fellow)\s+(?P<p>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s+"
        r"(?:resident|local|homeowner|dweller|inhabitant|householder)s?\b",
        t,
    ):
        place = _place_at(tx, m.start("p"))
        if place and not _negated(t, m.start(), 0):
            return _Finding(
                "lives_in", place[0], m.start(), m.end(), "person", aside=_aside(t, m.start())
            )
    # "the keys to the Lisbon apartment", "we bought a house in Haarlem"
    if _MOVE_IN.search(t):
        for m in re.finditer(
            r"\b(?P<p>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s+" + _DWELLING + r"\b"
            r"|\b" + _DWELLING + r"\s+(?:in|near|outside)\s+(?P<q>[A-Z])",
            t,
        ):
            at = m.start("p") if m["p"] else m.start("q")
            place = _place_at(tx, at)
            if place and not _negated(t, m.start(), 0):
                return _Finding("lives_in", place[0], m.start(), m.end(), "person")
    there = _LIVE_THERE.search(t)
    if there:
        for pm in reversed(list(re.finditer(r"\b(?:from|in|to)\s+", t[: there.start()]))):
            place = _place_at(tx, pm.end())
            if place:
                return _Finding("lives_in", place[0], there.start(), there.end(), "person")
    done = _MOVE_DONE_AT.search(t)  # "lisbon move done yesterday": the move, made
    moved_to = next(
        (h for h in tx.names if h.kind == "place" and done and h.end == done.start()), None
    )
    if done and moved_to is not None:
        return _Finding("lives_in", moved_to.canonical, moved_to.start, done.end(), "person")
    move = _MOVE_WORD.search(t)
    if move:
        for m in re.finditer(r"\s+to\s+", t):
            place = _place_at(tx, m.end())
            before = re.search(r"([A-Z][\w'-]*)\s*$", t[: m.start() + 1].rstrip())
            if place and before and _place_at(tx, before.start(1)):
                return _Finding("lives_in", place[0], m.start(), place[1], "person")
        # "moved yday -> now in lisbon", "relocated last week to Porto": where the move ended
        after = re.search(
            r"\b(?:(?:now|currently)\s+(?:in|at|based\s+in|living\s+in)|to)\s+", t[move.end() :]
        )
        place = _place_at(tx, move.end() + after.end()) if after else None
        if place and place[0] in {h.canonical for h in tx.names if h.kind == "place"}:
            a, _ = tx.clause_text(move.start())
            if not _negated(t, move.start(), a):
                return _Finding(
                    "lives_in",
                    place[0],
                    move.start(),
                    place[1],
                    "person",
                    future_cue=_PLAN_WORD.fullmatch(move.group(0)) is not None,
                )
    return None


# --------------------------------------------------------------------------- assembly


_ELLIPTICAL_WORDS = frozenset(
    {
        "use",
        "uses",
        "prefer",
        "prefers",
        "live",
        "lives",
        "work",
        "works",
        "drink",
        "drinks",
        "love",
        "loves",
        "now",
        "still",
        "back",
        "been",
        "no",
        "done",
        "off",
        "just",
        "finally",
        "currently",
        "recently",
        "also",
        "always",
        "usually",
        "mostly",
        "never",
        "quit",
        "left",
        "went",
        "gave",
        "took",
        "started",
        "relocate",
        "moved",
        "moving",
        "joined",
        "run",
        "running",
        "sticking",
        "stuck",
        "living",
        "planning",
        "heading",
        "becoming",
        "on",
        "made",
        "got",
        "came",
        "relocating",
    }
)
#: A note line that opens on what it is about, with no owner: ``Editor: Vim``, ``Daily
#: driver editor: VSCode``, ``VPN (WireGuard) for ...``, ``Home city - Rotterdam``.
_NOTE_ATTRIBUTE = (
    r"(?:(?:daily|driver|main|primary|usual|current|default|preferred|go-to|favou?rite"
    r"|work|personal|everyday|new|present)\s+)*(?:"
    + _KIND_RE
    + r"|home(?:\s+(?:city|town|base|country|address))?|hometown|residence|based|employer"
    r"|company|work|workplace|(?:job\s+)?title|role|job|gig|position|current\s+city|daily\s+driver"
    r")s?(?:\s+(?:of\s+choice|bump|change|update))?"
)
_NOTE_HEAD = re.compile(
    r"^\s*" + _NOTE_ATTRIBUTE + r"\s*(?::|\(|—|–|-\s|=|,|\bis\b|\bwas\b|\bnow\b|\bthese\s+days\b"
    r"|\bstill\b)",
    re.I,
)
#: A note line with its time between the attribute and the value: "Home since March 2019
#: (moved in on the 1st): Rotterdam", "Editor as of Monday: Helix". Read as "Home:
#: Rotterdam, since March 2019 (...)".
_VALUE_LAST = re.compile(
    r"^(?P<head>\s*(?:[A-Z][\w.'-]*(?:\s+[A-Z][\w'-]*)?'s\s+)?" + _NOTE_ATTRIBUTE + r")"
    r"(?P<mid>\s*(?:\(|\b(?:since|from|as\s+of|starting|effective|until|till|in|for|these\s+days"
    r"|now|currently|today|this|next|last)\b)[^:]{0,80}?)"
    r"\s*:\s*(?P<value>[^:]+?)\s*(?P<end>[.!]?)\s*$",
    re.I,
)


#: A job title typed in lower case after "I'm a", "is a", "as": "I'm a senior software
#: engineer" (words of titles only, so "a good engineer" stays as it is).
_LOWER_TITLE = re.compile(
    r"(?P<pre>\b(?:I'm|I\s+am|is|am|as|was|'s)\s+(?:now\s+)?(?:an?\s+|the\s+)?)"
    r"(?P<t>(?:(?:senior|junior|staff|principal|lead|head|chief|backend|frontend|full-stack"
    r"|fullstack|software|platform|data|product|devops|security|qa|test|engineering|tech"
    r"|technical|site\s+reliability|machine\s+learning|ml|cloud|infrastructure|mobile|web)\s+){1,3}"
    r"(?:engineer|developer|manager|lead|architect|designer|scientist|analyst))\b"
)
#: What follows a strong home cue but is no place: "lives in peace", "living in the past".
_NOT_A_PLACE_WORD = frozenset(
    re.findall(
        r"\w+",
        """a an the my our his her their this that these those there here it one peace fear hope
        denial limbo harmony luxury comfort style poverty squalor sin exile hiding terror dread
        misery bliss hell heaven sync vain fact general total theory practice town city
        production prod staging main master dev develop release beta alpha cloud docker
        lives live living lived based resides residing in at""",
    )
)
_HOME_CUE_LOWER = re.compile(
    r"\b(?:lives?|living|lived|based|settled|staying|resident)\s+in\s+(?P<w>[a-z][\w'-]*)"
    r"|\b(?:mov(?:e|es|ed|ing)|relocat(?:e|es|ed|ing)|emigrat\w+)\s+to\s+(?P<v>[a-z][\w'-]*)"
    r"|\b(?:home(?:\s+city|\s+town)?|hometown|city|location)\s*(?:[:=-]|->|→)\s*(?P<u>[a-z][\w'-]*)",
    re.I,
)


def _truecase(text: str, *, chat: bool | None = None) -> str:
    """Chat typed in lower case with its capitals back where the reader needs them: "i"
    is "I", and the word after a strong home cue is a place ("i live in rotterdam",
    "relocating to lisbon in july"); a note's home value too, in any text ("home city:
    madrid"). Known names need nothing: they are matched however cased."""
    lower = re.search(r"[A-Z]", text) is None
    # typed as chat, "relocating to lisbon come July" (the caller knows, before an opener
    # such as "fyi" is dropped)
    chat = lower or (not text[:1].isupper() if chat is None else chat)

    def place(m: re.Match[str]) -> str:
        group = next(g for g in ("w", "v", "u") if m[g])
        if (group != "u" and not chat) or m[group].lower() in _NOT_A_PLACE_WORD:
            return m.group(0)
        a = m.start(group) - m.start()
        word = m[group]
        return m.group(0)[:a] + word[:1].upper() + word[1:] + m.group(0)[a + len(word) :]

    text = _HOME_CUE_LOWER.sub(place, text)
    text = re.sub(r"\bcome\s+(?=[A-Z][a-z]+\b)", "in ", text)  # "relocating come July"
    if chat:
        text = re.sub(r"\bi\b(?=['\s,.!?]|$)", "I", text)
        text = _LOWER_TITLE.sub(lambda m: m["pre"] + m["t"].title(), text)
    if lower:
        text = re.sub(
            r"\bcome\s+(?=(?:january|february|march|april|may|june|july|august"
            r"|september|october|november|december)\b)",
            "in ",
            text,
        )
        text = re.sub(  # "in july", "since march", "on mon"
            r"\b(?P<cue>in|since|from|until|till|by|early|mid|late|of|this|next|last|on|before"
            r"|after|through)\s+(?P<w>january|february|march|april|may|june|july|august|september"
            r"|october|november|december|mon|tue|tues|wed|thu|thurs|fri|sat|sun)\b",
            lambda m: f"{m['cue']} {m['w'].capitalize()}",
            text,
        )
    return text


#: A chat closer asking to keep it, which says nothing of the statement before it.
_CLOSER = re.compile(
    r"[,;.!\s-]+(?:(?:pls|please)\s+)?(?:note(?:\s+(?:that|it))?|remember(?:\s+(?:that|this|it))?"
    r"|save(?:\s+(?:that|this|it))?|keep\s+(?:that|this|it)|for\s+the\s+record|fyi|pls|please"
    r"|thx|thanks)[.!\s]*$",
    re.I,
)
#: A note line written as an assignment, its head an attribute (after a name or two):
#: "role = Sr. Engineer", "LF hosting = Heroku". Read as "role: ...": it is no code.
_ASSIGN = re.compile(
    r"^((?:[A-Z][\w.'-]*\s+){0,2}(?:"
    + _NOTE_ATTRIBUTE
    + r"|"
    + _KEY_NAMES.replace("?P<key>", "?:")
    + r")(?:\s+(?:for|of|on|at|in)\s+[\w.'-]+(?:\s+[\w.'-]+){0,3})?)\s*=\s*(?=[A-Za-z])",
    re.I,
)


#: A name set to a capitalised value: "Tom = Platform Lead since Mon".
_NAME_ASSIGN = re.compile(r"^([A-Za-z][\w.'-]*(?:\s+[A-Za-z][\w.'-]*)?)\s+=\s+(?=[A-Za-z])")


def _unassign(text: str) -> str:
    """An assignment note line, at the start or after a label, written with a colon."""
    text = _NAME_ASSIGN.sub(r"\1: ", _ASSIGN.sub(r"\1: ", text))
    label = _label_end(text)
    if not label:
        return text
    return text[:label] + _NAME_ASSIGN.sub(r"\1: ", _ASSIGN.sub(r"\1: ", text[label:]))


def _value_last(text: str) -> str:
    """A note line with the value last rewritten value-first (see :data:`_VALUE_LAST`)."""
    m = _VALUE_LAST.match(text)
    if not m or not (
        find_times(m["mid"], dt.date(2000, 1, 1))
        or re.search(r"\b(?:now|currently|these\s+days|today)\b", m["mid"], re.I)
    ):
        return text  # "Home base for Ines: Madrid" is about whom, not when
    mid = m["mid"].strip()
    if re.fullmatch(r"(?:for\s+)?(?:this|the\s+current)\s+(?:week|month|year)", mid, re.I):
        mid = f"({mid})"  # "LF hosting this month: Heroku" holds for the month
    return f"{m['head'].strip()}: {m['value']}, {mid}{m['end']}"


# --------------------------------------------------------------------------- note lines

#: The kinds a note's attribute may name, short forms included ("lang", "bev").
_NOTE_KINDS = {
    "drink": "drink",
    "drinks": "drink",
    "beverage": "drink",
    "bev": "drink",
    "lang": "language",
    "language": "language",
    "programming language": "language",
    "editor": "editor",
    "shell": "shell",
    "vpn": "vpn",
    "browser": "browser",
    "terminal": "terminal",
    "os": "os",
    "food": "food",
}
_NOTE_KIND = "|".join(sorted((re.escape(k) for k in _NOTE_KINDS), key=len, reverse=True))
#: A note's attribute, by the predicate it gives: "drink pref", "fav lang", "Location",
#: "home city", "role", "employer".
_NOTE_ATTRS: tuple[tuple[str, str], ...] = (
    (
        "prefers",
        rf"(?:(?P<k1>{_NOTE_KIND})\s+)?(?:pref(?:erence|erred)?s?|fav(?:ou?rites?|s)?|favorites?)"
        rf"(?:\s+(?P<k2>{_NOTE_KIND}))?",
    ),
    (
        "lives_in",
        r"(?:new\s+)?(?:(?:home\s+)?location|home(?:\s+(?:city|town|base))?|hometown|city"
        r"|based(?:\s+in)?|(?:place\s+of\s+)?residence|lives?(?:\s+in)?)",
    ),
    ("role", r"(?:new\s+)?(?:role|(?:job\s+)?title|position)"),
    ("works_at", r"(?:new\s+)?(?:employer|company|org|organi[sz]ation|workplace)"),
    ("uses", rf"(?:(?:new|current|main|daily)\s+)?(?P<k3>{_NOTE_KIND})"),
)
_NOTE_SEP = r"\s*(?:\([^)]*\))?\s*(?:[:=]|->|→|\s[—–-])\s*"
#: When a note's attribute holds, between it and its value: "role from 3 Nov 2025: ...".
_NOTE_WHEN = r"\s+(?:from|since|as\s+of|effective|starting|until|till)\s+[\w ./-]{1,30}?"


def _cell_kind(cell: str, names: NameBook) -> str | None:
    """The kind of known name a table cell is, whole, or None."""
    entry = names.lookup(cell)
    return entry.kind if entry is not None else None


def _is_attribute(words: str) -> bool:
    """Whether ``words`` name an attribute (``IaC tool``, ``hosting``, ``home city``, ``role``)."""
    words = words.strip()
    if len(words.split()) > 4:
        return False
    return bool(
        re.fullmatch(_NOTE_ATTRIBUTE, words, re.I)
        or re.fullmatch(_KEY_NAMES, words, re.I)
        or any(re.fullmatch(attr, words, re.I) for _, attr in _NOTE_ATTRS)
        or any(pattern.search(words) for pattern, _ in _KEY_WORDS)
    )


def _note_kind(m: re.Match[str]) -> str | None:
    """The kind a note attribute's match names (``drink pref``, ``fav lang``, ``editor``)."""
    said = next((g for g in (m.groupdict().get(k) for k in ("k1", "k2", "k3")) if g), "")
    return _NOTE_KINDS.get(" ".join(said.lower().split()))


def _note_subject(tx: _Text, head: tuple[int, int]) -> tuple[str, str] | None:
    """Who a note line's head names: ("I", "my") for none or "my", else a known person's
    or project's name as written and its possessive."""
    a, b = head
    day = re.search(
        r"(?:^|[\s,]+)(?:my\s+|her\s+|his\s+)?" + _TIME_OF_DAY.pattern + r"\s*$", tx.text[a:b], re.I
    )
    if day:  # "Priya, morning drink pref": the time of day is the condition, not the name
        b = a + day.start()
    words = tx.text[a:b].strip()
    if not words or words.lower() == "my":
        return "I", "my"
    hit = next((h for h in tx.names if h.start == a and h.end >= b - 3), None)
    if hit is None or hit.kind not in ("person", "project"):
        return None
    name = tx.text[hit.start : hit.end]
    return name, f"{name}'s"


def _as_sentence(predicate: str, who: tuple[str, str], kind: str | None, value: str) -> str:
    """The sentence a note line stands for."""
    subject, possessive = who
    s = "" if subject == "I" else "s"
    if predicate == "prefers":
        return (
            f"{possessive} favourite {kind} is {value}" if kind else f"{subject} prefer{s} {value}"
        )
    if predicate == "lives_in":
        return f"{subject} live{s} in {value}"
    if predicate == "role":
        return f"{possessive} role is {value}"
    if predicate == "uses":
        return f"{possessive} {'favourite ' if kind in _TASTES else ''}{kind} is {value}"
    return f"{subject} work{s} at {value}"


#: A title and, after a comma, the project it is for: "Tech Lead, Keelhaul", "lead, for KH".
_TITLE_BEFORE_PROJECT = re.compile(
    r"(?P<t>\b(?:[A-Z][\w-]*\s+){0,2}(?:Lead|Manager|Engineer|Architect|Owner|Head|Director))"
    r"\s*,\s*(?:for\s+|on\s+|of\s+)?$"
)
#: A name between dashes after a note's value: "Role: Backend Engineer — I. Duarte — from ...".
_SIGNED_MIDDLE = re.compile(
    r"\s+[—–-]\s+(?P<who>[A-Z][\w.'-]*(?:\s+[A-Z][\w'-]*\.?)?)\s+[—–-]\s+(?P<rest>[^—–]+)$"
)
#: A name after a dash that ends a line, signing it: "Role: Backend Engineer — Ines Duarte".
_SIGNED = re.compile(
    r"\s+[—–-]\s+(?P<who>[A-Z][\w.'-]*(?:\s+[A-Z][\w'-]*\.?)?)(?P<tail>,?\s*(?:\([^)]*\))?)\s*$"
)


def _note_line(text: str, names: NameBook) -> str:
    """A note line written as the sentence it stands for, else ``text`` unchanged.

    Two shapes, after an optional ``Label:`` that is kept (``agent guess (unconfirmed):``):
    an attribute and its value, ``[<who>] <attribute> [(<aside>)]: <value>[, <rest>]``
    (``drink pref: coffee``, ``fav lang: Python``, ``T. Wierzbicki role: Platform Lead,
    since Mon``, ``Location: Madrid (Inês Duarte)``); and a person, a separator and what
    they are, ``<person> <|, -, ->, :> <value>``, the value's kind deciding the predicate: a
    known organisation (works at; joins after an arrow), a title (is; becomes after an
    arrow), a drink or tool (prefers, uses), or an attribute and value (``I. Duarte - new
    home city Porto, from 2026-04-01``)."""
    titled = re.search(r"(?:Lead|Manager|Engineer|Architect|Owner|Head|Director)\s*,", text)
    projects = [h for h in _scan(text, names).names if h.kind == "project"] if titled else []
    for hit in reversed(projects):
        title = _TITLE_BEFORE_PROJECT.search(text[: hit.start])
        if title:  # "Tech Lead, Keelhaul": the project's title, "Keelhaul Tech Lead"
            named = text[hit.start : hit.end]
            text = f"{text[: title.start()]}{named} {title['t']}{text[hit.end :]}"
    dashed = re.match(r"\s*(?P<label>[A-Za-z][\w .]{0,30}?)\s+[—–-]\s+", text)
    if dashed and any(p.fullmatch(dashed["label"]) for p, _ in _LABEL_PREDICATES):
        text = f"{dashed['label']}: {text[dashed.end() :]}"  # "Appointment — I. Duarte, ..."
    middle = _SIGNED_MIDDLE.search(text)  # "Role: X — I. Duarte — start date ...": whose
    if middle and ":" in text[: middle.start()]:
        signer = names.lookup(middle["who"])
        if signer is not None and signer.kind == "person":
            text = f"{text[: middle.start()]} ({middle['who']}), {middle['rest']}"
    signed = _SIGNED.search(text)  # "Home city: Madrid — I. Duarte": whose line it is, last
    if signed and (":" in text[: signed.start()] or "|" in text[: signed.start()]):
        signer = names.lookup(signed["who"])
        if signer is not None and signer.kind == "person":
            head = text[: signed.start()]
            text = (
                f"{head} | {signed['who']}"
                if "|" in head
                else f"{head} ({signed['who']}){signed['tail']}"
            )
    row = re.fullmatch(r"(?P<name>[^|]+?)\s*\|\s*(?P<attr>[^|]+?)\s*\|\s*(?P<value>[^|]+?)", text)
    if row and _is_attribute(row["attr"]):  # a table's row: "Keelhaul | IaC tool | Terraform"
        text = f"{row['name']} {row['attr']}: {row['value']}"
    elif "|" in text or " · " in text:  # "Team | T. Wierzbicki | Tidewater": who, employer
        cells = [c.strip() for c in re.split(r"\||\s·\s", text)]
        parts = [  # "Tidewater Labs team · Tomasz Wierzbicki": the team is the employer's
            re.sub(r"\s+(?:team|staff|people|crew)$", "", p.strip(), flags=re.I)
            for c in cells
            for p in re.split(r":\s+", c)
        ]
        kinds = [_cell_kind(p, names) for p in parts]
        # a cell's own label says nothing of who: "Name: Ines Duarte"
        unlabelled = [
            re.sub(r"^(?:name|who|person|employee|staff)\s*:\s*", "", c, flags=re.I) for c in cells
        ]
        if "person" in kinds and "organisation" in kinds:  # either order: a team list's
            who = parts[kinds.index("person")]  # "Our people | Tidewater Labs | T. Wierzbicki"
            org = parts[kinds.index("organisation")]
            more = [  # "| Start date: 2025-11-03" says when
                c for c in cells if who not in c and org not in c and re.search(r"\d", c)
            ]
            text = ", ".join([f"{who} works at {org}", *more])
        elif (
            len(cells) > 2
            and any(p.fullmatch(cells[0]) for p, _ in _LABEL_PREDICATES)
            and _cell_kind(cells[1], names) == "person"
        ):  # "Appointment | I. Duarte | Keelhaul Tech Lead | starts 01 Sep 2026"
            text = f"{cells[0]}: {', '.join(cells[1:])}"
        elif [_cell_kind(c, names) for c in unlabelled].count("person") == 1:
            # "Role: Backend Engineer | I. Duarte | effective ..."
            cells = unlabelled
            kinds = [_cell_kind(c, names) for c in cells]
            who = cells[kinds.index("person")]
            stated = [
                c
                for c in cells
                if re.match(r"[^:]{1,30}:\s*\S", c) and _is_attribute(c.split(":")[0])
            ]
            if len(stated) == 1:
                others = [c for c in cells if c not in (who, stated[0]) and c]
                text = ", ".join([f"{who} {stated[0]}", *others])
    tx = _scan(text, names)
    for label in dict.fromkeys((0, tx.label_end)):  # the head may be the label: "fav lang: X"
        said = _attribute_line(tx, label)
        if said is not None:
            return said
    for label in dict.fromkeys((0, tx.label_end)):  # "Priya: tea", "Update: Priya - tea"
        said = _person_line(tx, label)
        if said is not None:
            head = text[:label].strip().rstrip(":").strip()
            if label and any(p.fullmatch(head) for p, _ in _LABEL_PREDICATES):
                return said[label:]  # "Role change: Ines -> Tech Lead": the label said it
            return said
    return _labelled_line(tx) or text


#: A heading label that says what the lines under it state: "Relocations:", "Promotion:".
_LABEL_PREDICATES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"relocat\w*(?:\s+(?:staff|people|employees|colleagues))?|(?:office\s+)?moves?|moving"
            r"|new\s+homes?|(?:home\s+)?(?:address|location|residence)\s+(?:changes?|updates?)",
            re.I,
        ),
        "lives_in",
    ),
    (
        re.compile(
            r"promot\w*|role\s+changes?|new\s+roles?|appointments?|appts?\.?|title\s+changes?", re.I
        ),
        "role",
    ),
    (re.compile(r"new\s+hires?|hires|joiners?|new\s+joiners?|welcome", re.I), "works_at"),
)


def _labelled_line(tx: _Text) -> str | None:
    """``<Label>: <person><, or to> <value>[, <rest>]``, the label naming the predicate:
    ``Relocations: I. Duarte, Porto, from 2026-04-01``, ``Promotion: M. Okafor to Staff
    Engineer, eff. next month``; else None."""
    text, label = tx.text, tx.label_end
    if not label:
        return None
    head = text[:label].strip().rstrip(":").strip()
    predicate = next((pr for pattern, pr in _LABEL_PREDICATES if pattern.fullmatch(head)), None)
    person = next((h for h in tx.names if h.kind == "person" and h.start == label), None)
    if predicate is None or person is None:
        return None
    who = text[person.start : person.end]
    org = next((h for h in tx.names if h.kind == "organisation" and h.start >= person.end), None)
    if predicate == "works_at" and org is not None:  # "New joiner: I. Duarte — start at X ..."
        return f"{text[:label]}{who} joins {text[org.start :]}"
    m = re.match(
        r"\s*(?:,|\bto\b|\bat\b|->|→|[-–—|:])\s*(?P<value>[^,;()]+?)(?P<rest>\s*(?:[,;(].*)?)$",
        text[person.end :],
    )
    if m is None:
        return None
    value = m["value"].strip()
    attr = next((a for pr, a in _NOTE_ATTRS if pr == predicate), None)
    if attr:  # "Relocation: I. Duarte, new home city Porto": the attribute said again
        value = re.sub(rf"^(?:{attr})\s*(?:[:=]|->|→)?\s+(?=\S)", "", value, flags=re.I)
    if predicate == "lives_in" and value.islower() and value not in _NOT_A_PLACE_WORD:
        value = value.title()  # "relocations: I. Duarte -> porto"
    said = _as_sentence(predicate, (who, f"{who}'s"), None, value)
    return f"{text[:label]}{said}{m['rest']}"


def _attribute_line(tx: _Text, label: int) -> str | None:
    """``[<who>] <attribute> [(<aside>)]: <value>[, <rest>]`` as a sentence, after
    ``text[:label]`` (kept), or None."""
    text = tx.text
    body = text[label:]
    for predicate, attr in _NOTE_ATTRS:
        m = re.match(
            rf"(?P<head>.{{0,40}}?)(?:\s+|^)(?P<attr>{attr})(?P<when>{_NOTE_WHEN})?"
            r"(?:\s+(?:atm|rn|now|currently|nowadays|these\s+days|fyi|btw))?"  # "my title atm: ..."
            rf"(?P<on>\s+(?:on|at|in)\s+[^:=,;()]{{1,40}}?)?{_NOTE_SEP}"
            r"(?P<value>[^,;()]+?)"
            r"(?P<rest>\s*(?:[,;(].*)?)$",
            body,
            re.I,
        )
        if not m:
            continue
        head = (label + m.start("head"), label + m.end("head"))
        who = _note_subject(tx, head)
        rest = m["rest"]
        inside = re.search(r"\(([^)]*)\)", rest)
        if who == ("I", "my") and inside:  # "Location: Madrid (Inês Duarte)"
            named = next(
                (
                    h
                    for h in tx.names
                    if h.kind == "person" and label + m.start("rest") + inside.start(1) == h.start
                ),
                None,
            )
            after = inside[1][named.end - named.start :] if named else ""
            if named and (not after.strip() or after.lstrip().startswith(",")):
                who = (text[named.start : named.end], f"{text[named.start : named.end]}'s")
                more = after.lstrip()[1:].strip()  # "(Ines, effective 03/11/2025)"
                keep = f", {more}" if more else ""
                rest = rest[: inside.start()] + keep + rest[inside.end() :]
        aside = re.search(r"\([^)]*\)", text[label + m.end("attr") : label + m.start("value")])
        kind = _note_kind(m)
        value = m["value"].strip()
        value_at = label + m.start("value")
        first = next((h for h in tx.names if h.kind == "person" and h.start == value_at), None)
        then = re.match(r"\s*[-–—:]\s*(?=\S)", text[first.end :]) if first else None
        if who == ("I", "my") and first is not None and then is not None:
            # "Role (from 2025-11-03): Ines Duarte - Backend Engineer": hers, not mine
            own = re.match(
                r"(?P<value>[^,;()]+?)(?P<rest>\s*(?:[,;(].*)?)$", text[first.end + then.end() :]
            )
            if own:
                who = (text[first.start : first.end], f"{text[first.start : first.end]}'s")
                value, rest = own["value"].strip(), own["rest"]
        if who is None or re.fullmatch(
            r"(?:tb[acd]|n/?a|none|unknown|not\s+sure|\?+|-+|same)\.?", value, re.I
        ):
            continue
        if predicate == "lives_in":  # "location: lives in Madrid"
            value = re.sub(
                r"^(?:lives?|living|based|resides?|residing)\s+in\s+", "", value, flags=re.I
            )
        said = _as_sentence(predicate, who, kind, value)
        if re.search(r"->|→", text[label + m.end("attr") : value_at]):
            said = said.replace(" is ", " is now ", 1)  # "editor → zed": a change, to zed
        tail = f"{rest}{' ' + aside.group(0) if aside else ''}"
        when = _TIME_OF_DAY.search(m["head"])
        if when:  # "Priya, morning drink pref: tea": the value under that condition
            tail = f" {_at_time_of_day(when[0])}{tail}"
        if m["when"]:  # "role from 3 Nov 2025: Backend Engineer"
            tail = f",{m['when']}{tail}"
        if m["on"]:  # "my vpn on keelhaul staging cluster: wireguard": where it holds
            tail = f"{m['on']}{tail}"
        return f"{text[:label]}{said}{tail}"
    return None


def _person_line(tx: _Text, label: int) -> str | None:
    """``<person> <|, -, ->, :> <value>`` as a sentence (see :func:`_note_line`), or None.
    ``me``/``I`` is the writer."""
    text = tx.text
    person = next((h for h in tx.names if h.kind == "person" and h.start == label), None)
    me = re.match(r"(?:me|I|myself)\b", text[label:])
    if person is None and me is None:
        return None
    end = person.end if person is not None else label + me.end()  # type: ignore[union-attr]
    sep = re.match(
        r"(?:\s*(?P<sep>\||->|→|–|—|-|:|·|,)|\s+(?P<slash>/)(?=\s)|\s+(?=at\s)(?P<at>at))\s*",
        text[end:],
    )
    if sep is None:
        return None
    at = end + sep.end()
    rest = text[at:]
    who = (text[label:end], f"{text[label:end]}'s") if person is not None else ("I", "my")
    arrow = sep["sep"] in ("->", "→")
    projects = [h for h in tx.names if h.kind == "project"]
    if (sep["sep"] == "," or sep["slash"]) and not (
        _WHEN_ARROW.match(rest)
        or any(re.match(attr, rest, re.I) for _, attr in _NOTE_ATTRS)
        or (  # "Inês Duarte, Backend Engineer, effective ..." (with an employer: works at)
            sep["sep"] == ","
            and _title_at(text, at, strong=True, projects=projects)
            and not any(h.kind == "organisation" for h in tx.names)
        )
    ):
        return None  # "Priya, ..." is a note line only before an attribute or a time of day
    org = next((h for h in tx.names if h.kind == "organisation" and h.start == at), None)
    since = r"\s*(?:$|[,(]?\s*(?:since|from|as\s+of|starting)\b)"
    if sep["at"] and (org is None or not re.match(since, text[org.end :], re.I)):
        return None  # "me at Tidewater since 2022" (typed "me @ Tidewater"); not a visit
    if org is not None:
        verb = (
            ("join" if arrow else "work at")
            if who[0] == "I"
            else ("joins" if arrow else "works at")
        )
        return f"{text[:label]}{who[0]} {verb} {rest}"
    plan = _PLANNED_MOVE.match(rest)
    if plan is not None and plan["p"].lower() not in _NOT_A_PLACE_WORD | _NOT_A_MOVE_PLACE:
        where = plan["p"][:1].upper() + plan["p"][1:]  # "tom: gdańsk relocation planned"
        verb = "plan" if who[0] == "I" else "plans"
        return f"{text[:label]}{who[0]} {verb} to relocate to {where} {plan['rest']}"
    place = next((h for h in tx.names if h.kind == "place" and h.start == at), None)
    if place is not None:  # "ines -> Porto": a known place; "ines: madrid" a state now
        move = _MOVE_OR_PLAN.search(text[place.end :]) if arrow else None
        if move:  # "me → lisbon in july (moving)", "tom -> gdansk (moved yday)"
            past = move[0].lower().endswith("ed")
            verb = "moved to" if past else ("am" if who[0] == "I" else "is") + " moving to"
            return f"{text[:label]}{who[0]} {verb} {rest}"
        if arrow:
            verb = "live" if who[0] == "I" else "lives"
        else:
            verb = ("am" if who[0] == "I" else "is") + " living"
        return f"{text[:label]}{who[0]} {verb} in {rest}"
    for predicate, attr in _NOTE_ATTRS:
        m = re.match(
            rf"(?P<attr>{attr})\s*:?\s+(?P<value>[^,;()]+?)(?P<rest>\s*(?:[,;(].*)?)$", rest, re.I
        )
        if m:
            kind = _note_kind(m)
            said = _as_sentence(predicate, who, kind, m["value"].strip())
            return f"{text[:label]}{said}{m['rest']}"
    lead = re.match(
        r"(?:is\s+)?(?:(now|still|currently)\s+)?(?:in|based\s+in|living\s+in)\s+[A-Z]", rest
    )
    if lead:  # "Ines: in Madrid this month" is a state now, as "is living in" says
        verb = ("am" if who[0] == "I" else "is") + (f" {lead[1]}" if lead[1] else "")
        where = re.sub(r"^.*?\bin\s+", "in ", rest, count=1)
        return f"{text[:label]}{who[0]} {verb} living {where}"
    if re.match(r"(?:will\s+be|is\s+now|is|becomes|became|was)\s+\S", rest):
        return f"{text[:label]}{who[0]} {rest}"  # "Ines D. - will be Backend Engineer ..."
    when = _WHEN_ARROW.match(rest)
    if when is not None:  # "priya: mornings → tea": the value under that condition
        at += when.end()
        rest = f"{text[at:]} {_at_time_of_day(when['day'])}"
    tool = next((h for h in tx.tools if h.start == at), None)
    if tool is not None:
        verb = "prefer" if tool.category in _TASTES else "use"
        return f"{text[:label]}{who[0]} {verb if who[0] == 'I' else verb + 's'} {rest}"
    projects = [h for h in tx.names if h.kind == "project"]
    if _title_at(text, at, strong=True, projects=projects):
        if arrow:
            return f"{text[:label]}{who[0]} {'become' if who[0] == 'I' else 'becomes'} {rest}"
        return f"{text[:label]}{who[1]} role is {rest}"  # a title however cased
    return None


#: A planned move named by where it goes: "gdańsk relocation planned", "Berlin move scheduled".
_PLANNED_MOVE = re.compile(
    r"(?P<p>[^\W\d_][\w'-]*)\s+(?:relocation|move)\s+(?=(?:is\s+)?(?:planned|scheduled|upcoming"
    r"|pending|coming))(?P<rest>.*)$",
    re.I,
)
_NOT_A_MOVE_PLACE = frozenset(
    {"house", "home", "office", "desk", "team", "server", "db", "database", "data", "repo", "big"}
)
#: A time of day or of the week, in a note line.
_TIME_OF_DAY = re.compile(r"\b(?:morning|afternoon|evening|night|weekend|weekday)s?\b", re.I)
#: A time of day or week, then an arrow to what holds then: "mornings → tea".
_WHEN_ARROW = re.compile(
    r"(?:in\s+the\s+|on\s+)?(?P<day>(?:morning|afternoon|evening|night|weekend|weekday)s?)"
    r"\s*(?:->|→|=|:)\s*",
    re.I,
)


def _at_time_of_day(word: str) -> str:
    """``mornings`` -> ``in the mornings``, ``weekend`` -> ``on weekends``."""
    day = word.lower().rstrip("s")
    return f"{'on' if day.startswith('week') else 'in the'} {day}s"


def _elliptical(text: str, label_end: int) -> bool:
    """Whether the statement has no subject and so is the writer's own.

    Either it starts with a verb or an adverb standing for one (``Switched editors ...``,
    ``Been with Tidewater since ...``, ``No more coffee ...``, ``Back on Vim``), or it is
    a note line that opens on the attribute it gives (``Editor: Vim``, ``VPN (WireGuard)
    for ...``).
    """
    if _NOTE_HEAD.match(text) or _NOTE_HEAD.match(text[label_end:]):
        return True
    if _MOVE_DONE.match(text[label_end:]):
        return True  # "lisbon move done yesterday": the writer's own move
    rest = text[label_end:].lstrip()
    tool = _GAZ_RE.match(_fold_keep(rest))
    known = _GAZ_FOLDED.get(" ".join(tool.group(0).split())) if tool else None
    if (
        known is not None  # a person's tool or taste, not a project's host or database
        and known.category not in set(PROJECT_KEYS.values()) - {"language"}
        and tool is not None
        and re.match(  # "tea now, not coffee", "Python all the way", "fish again"
            r"\s*(?:now|again|these\s+days|nowadays|only|from\s+now\s+on|all\s+the\s+way"
            r"|for\s+me|,\s*not)\b",
            rest[tool.end() :],
            re.I,
        )
    ):
        return True
    first = re.match(r"\s*([A-Za-z]+)", text[label_end:])
    if not first:
        return False
    word = first.group(1).lower()
    # "Switched ...", "Been living ...", "officially a Lisbon resident ..."
    return word.endswith(("ed", "ing", "ly")) or word in _ELLIPTICAL_WORDS


def _subject(tx: _Text, finding: _Finding, speaker: str | None) -> tuple[str | None, bool]:
    """The subject's canonical name, and whether one was found at all."""
    if finding.subject:
        return finding.subject, True
    if finding.subject_type == "project":
        projects = [h for h in tx.names if h.kind == "project"]
        if not projects:
            return None, False
        a, b = tx.clauses[tx.clause_of(finding.cue)]
        same = [p for p in projects if a <= p.start < b]
        return (same or projects)[0].canonical, True
    candidates = tx.people
    before = [h for h in candidates if h.start < finding.cue]
    after = [h for h in candidates if h.start >= finding.cue_end or h.start >= finding.cue]
    pick = before[-1] if before else (after[0] if after else None)
    if pick is None:
        if not _elliptical(tx.text, tx.label_end):
            return None, False
        if speaker is None:  # "agent guess (not from M.): prefers Rust?" is about M.
            named = {h.canonical for h in tx.names if h.kind == "person" and h.end <= tx.label_end}
            if len(named) == 1:
                return named.pop(), True
        return speaker, speaker is not None
    if pick.kind == "first":
        return speaker, speaker is not None
    return pick.canonical, True


def _canonical_names(tx: _Text, phrase: str) -> str:
    """``phrase`` (a piece of the statement) with the known names it holds written in
    canonical form: ``on KH staging`` -> ``on Keelhaul staging``, ``with Tom`` -> ``with
    Tomasz Wierzbicki``."""
    for hit in sorted(tx.names, key=lambda h: h.end - h.start, reverse=True):
        surface = tx.text[hit.start : hit.end]
        if surface != hit.canonical:
            pattern = re.compile(rf"(?<![\w]){re.escape(surface)}(?![\w])")
            phrase = pattern.sub(hit.canonical.replace("\\", "\\\\"), phrase)
    return phrase


def _condition(tx: _Text, finding: _Finding) -> str | None:
    if finding.predicate not in {"uses", "prefers", "project_attribute"}:
        return None
    found = _condition_text(tx)
    if found is None and finding.predicate != "project_attribute":
        found = _environment(tx)  # a person's tool on a project's environment, never its own
    return _canonical_names(tx, found) if found else None


def _condition_text(tx: _Text) -> str | None:
    for pattern, phrase in _CONDITION_TIME:
        if pattern.search(tx.text):
            return phrase
    m = next(
        (
            w
            for w in _CONDITION_WHEN.finditer(tx.text)
            if not re.match(_CHOICE, tx.text[w.start() :], re.I)  # "whenever I get to pick"
        ),
        None,
    )
    if m and re.match(
        r"(?:(?:we|I|she|he|they|you)\s+)?(?:were|was|had)\b", m["rest"].strip(), re.I
    ):
        m = None  # "While we were debugging ..., Maren explained ..." tells when it was said
    if m and re.match(r"it\s+comes\s+to\b", m["rest"].strip(), re.I):
        m = None  # "When it comes to drinks, I prefer coffee" names the topic, not a condition
    if m:
        rest = _CONDITION_STRIP.sub("", m["rest"].strip(), count=1).strip()
        rest = re.split(r"\s+(?:I|we|she|he|they|it|you)\s+", rest)[0]
        rest = re.sub(r"\s+", " ", rest).rstrip(".!?")
        if rest and not re.match(r"(?:the\s+)?\w+\s+(?:is|are|was)\s+(?:done|over)", rest, re.I):
            return f"when {rest}"
    for m in _CONDITION_ONLY.finditer(tx.text):
        group = "r" if m["r"] else "r2"
        a, b = m.span(group)
        if _overlaps(a, b, tx.tools):  # "runs on Fly.io only" names the value, not a condition
            continue
        prep = (m["p"] or m["p2"]).lower()
        rest = re.split(r"\s+(?:and|but|or|never|not)\s+", m[group].strip())[0].rstrip(".!?")
        if not rest or re.fullmatch(r"(?:now|today|me|you|us|them|good|the\s+record)", rest, re.I):
            continue
        if re.match(
            r"(?:this|the\s+current|the\s+rest\s+of\s+the)\s+(?:week|month|year)\b", rest, re.I
        ):
            continue  # "Heroku for this month only" is a time, not a condition
        thing = re.match(r"(?:the|our|my|a|an|her|his|their)\s", rest, re.I) or _overlaps(
            a, b, [h for h in tx.names if h.kind == "project"]
        )
        if prep in {"for", "inside", "within"} and thing:
            prep = "on"
        return f"for {rest}" if prep == "for" else f"when {prep} {rest}"
    return None


_ENV = r"(?:staging|production|prod|dev|development|test|testing|qa|sandbox)"
_ENV_TAIL = r"(?:\s+(?:cluster|environment|env|servers?|boxes|hosts|nodes|machines))?"


def _environment(tx: _Text) -> str | None:
    """A project's environment the claim holds on: "KH staging: I connect through X", "for
    staging on KH", "on the Keelhaul staging cluster" -> "when on Keelhaul staging[ cluster]"."""
    t = tx.text
    for p in (h for h in tx.names if h.kind == "project"):
        after = re.match(
            rf"(?:\s+{_PROJECT_NOUN}(?:'s)?)?\s+(?P<env>{_ENV})(?P<tail>{_ENV_TAIL})\b",
            t[p.end :],
            re.I,
        )
        before = re.search(
            rf"\b(?P<env>{_ENV})(?P<tail>{_ENV_TAIL})\s+(?:on|for|of|in)\s+(?:the\s+)?$",
            t[: p.start],
            re.I,
        )
        m = after or before
        if m:
            return f"when on {p.canonical} {m['env'].lower()}{m['tail'].lower()}"
    return None


@dataclass
class _Timing:
    valid_from: dt.date | None = None
    valid_until: dt.date | None = None
    precision: Precision = "day"
    phrase: str | None = None
    resolved: bool = True
    until_relative: bool = False  # the end was said without its year ("to end of Feb")


def _with_preposition(text: str, mention: TimeMention) -> str:
    m = re.search(
        r"\b(since|from|on|in|until|till|as\s+of|effective|starting|by)\s+$",
        text[: mention.start],
        re.I,
    )
    return f"{m.group(1)} {mention.phrase}" if m else mention.phrase


def _timing(tx: _Text, finding: _Finding, times: list[TimeMention]) -> _Timing:
    t = tx.text
    cue_clause = tx.clause_of(finding.cue)
    timing = _Timing()
    unresolved: TimeMention | None = None
    prev_end = 0
    for mention in times:
        index = tx.clause_of(mention.start)
        a, b = tx.clauses[index]
        if index != cue_clause and not _TIME_ANCHOR.search(t[a:b]):
            continue
        if not mention.resolved:
            unresolved = unresolved or mention
            continue
        if re.match(r"'s\b", t[mention.end :]) and not _CHANGE_WORD.search(t):
            continue  # "During today's session Maren confirmed ...": when it was said
        ctx = t[max(a, prev_end) : mention.start]
        prev_end = mention.end
        assert mention.date is not None and mention.until is not None
        clause = t[a:b]
        if (
            mention.relative
            and _bounded_period(clause)
            and re.search(r"\b(?:this|current)\b", mention.phrase, re.I)
        ):
            if timing.valid_from is None:
                timing.valid_from, timing.valid_until = mention.date, mention.until
                timing.precision = mention.precision
                timing.phrase = _with_preposition(t, mention)
                end_of = _END_OF_THIS.match(mention.phrase)
                if end_of:  # "remains on Heroku through the end of this month": all of it
                    timing.valid_from = _period_start(mention.date, end_of[1].lower())
            continue
        inclusive_end = timing.valid_from is not None and re.fullmatch(
            r"\s*(?:to|through|thru|till|-|–|->|→)\s*", ctx, re.I
        )
        if _LAST_DAY_CUE.search(ctx) or (inclusive_end and timing.valid_until is None):
            if timing.valid_until is None:
                timing.valid_until = mention.until
                timing.until_relative = mention.relative
                timing.phrase = timing.phrase or (mention.phrase if mention.relative else None)
            continue
        until_cue = _UNTIL_CUE.search(ctx)
        from_cues = [  # the "from" of "back from leave" ends a period, it starts none
            f
            for f in _FROM_CUE.finditer(ctx)
            if not re.search(r"\b(?:back|returns?|returning)\s+$", ctx[: f.start()], re.I)
        ]
        if until_cue and not (from_cues and from_cues[-1].start() > until_cue.start()):
            if timing.valid_until is None:
                # "through 13 May", "ends on 13 May" and "until the end of February"
                # include that day
                inclusive = re.match(
                    r"through|thru|ends?\b|ending|conclud|wraps?\s+up", until_cue.group(0), re.I
                ) or re.match(r"(?:the\s+)?end\s+of\b", mention.phrase, re.I)
                timing.valid_until = mention.until if inclusive else mention.date
                timing.until_relative = mention.relative
                end_of = _END_OF_THIS.match(mention.phrase)
                if (
                    end_of
                    and timing.valid_from is None
                    and finding.predicate != "status"  # a leave's start is its own event
                    and not _CHANGE_WORD.search(clause)
                ):
                    # "LF hosting: heroku thru end of this month": this month, to its end
                    timing.valid_from = _period_start(mention.date, end_of[1].lower())
                timing.phrase = timing.phrase or (
                    _with_preposition(t, mention) if mention.relative else None
                )
            continue
        if finding.closing and timing.valid_until is None and not _SINCE_CUE.search(ctx):
            # a leaving's date is its last day: "leaves on 30 January", "left in March",
            # "whose final day with Tidewater will be Friday, January 30"
            timing.valid_until = mention.until
            timing.until_relative = mention.relative
            timing.phrase = timing.phrase or (mention.phrase if mention.relative else None)
            continue
        if timing.valid_from is None:
            timing.valid_from = mention.date
            timing.precision = mention.precision
            if mention.relative:
                timing.phrase = _with_preposition(t, mention)
    if (
        timing.valid_from is not None
        and timing.valid_until is not None
        and timing.valid_until <= timing.valid_from
        and timing.until_relative
    ):  # "from 12 Jan to end of Feb" said in January ends in the February after
        timing.valid_until += relativedelta(years=1)
    if timing.valid_from is None and timing.valid_until is None and unresolved is not None:
        timing.resolved = False
        timing.phrase = unresolved.phrase
    return timing


_DETECTORS: tuple[Callable[[_Text], _Finding | None], ...] = (
    _find_status,
    _find_prefers,
    _find_tool,
    _find_role,
    _find_works_at,
    _find_lives_in,
)
#: What a question may propose: a tool or a project's attribute, never a person's life.
_PROPOSABLE = frozenset({"uses", "prefers", "project_attribute"})


def _read(tx: _Text, speaker: str | None, *, proposal: bool) -> tuple[_Finding, str] | None:
    """The first predicate that reads and has a subject, with that subject."""
    for detect in _DETECTORS:
        finding = detect(tx)
        if finding is None:
            continue
        if proposal and finding.predicate not in _PROPOSABLE:
            return None
        subject, ok = _subject(tx, finding, speaker)
        if ok and subject is not None:
            return finding, subject
        if finding.subject_type == "person" and any(h.kind == "first" for h in tx.people):
            return None  # the speaker's own words with no speaker: nothing about anyone
    return None


def _refuse(text: str) -> bool:
    if _HOSTILE.search(text) or _CODE.search(text):
        return True
    if not text.rstrip().endswith("?"):
        return False
    # a proposal, or a guess said as a question ("agent's read: Maren prefers Rust?"), is
    # read as a hedged claim; any other question asks
    label = text[: _label_end(text)]
    asides = " ".join(re.findall(r"\(([^)]*)\)", text))  # "(agent's read, not her words)"
    return not (_PROPOSAL.match(text[len(label) :]) or _HEDGE.search(f"{label} {asides}"))


#: A question that proposes (``should LF run on X?``, ``why not move to X?``), read as a
#: hedged claim; any other question asks and claims nothing.
_PROPOSAL = re.compile(
    r"\s*(?:should|shall\s+(?:we|I|they)|what\s+if|what\s+about|how\s+about|why\s+not"
    r"|(?:could|can|would|might)\s+we|would\s+it\s+(?:make\s+sense|be\s+(?:better|worth))"
    r"|is\s+it\s+(?:time|worth)|(?:do|don't)\s+we\s+want\s+to|maybe\s+(?:we\s+should|switch|move)"
    r"|worth\s+(?:moving|switching|migrating|trying))\b",
    re.I,
)


#: A chat opener that says nothing of the statement after it: "fyi been living in ...".
_OPENER = re.compile(
    r"^(?:fyi|btw|by\s+the\s+way|ps|p\.s\.|heads[\s-]up|quick\s+note|just\s+so\s+you\s+know"
    r"|for\s+the\s+record|update|ok(?:ay)?|so|remember(?=\s*[-:,])|remember(?!\s+(?:that|to)\b)"
    r"|note\s+to\s+self|note(?=\s*[-,]))\b[,:!.\s-]*(?=\S)",
    re.I,
)
#: A request to keep something, asked as a question: "Could you remember that Tom ...?"
_KEEP_REQUEST = re.compile(
    r"^(?:could|can|would|will)\s+you\s+(?:please\s+)?(?:remember|note|save|record|jot\s+down"
    r"|keep\s+in\s+mind|write\s+down)\s+(?:that\s+)?(?P<said>.+?)\s*\?*$",
    re.I,
)
#: Title abbreviations written out, so a title reads as it is said.
_TITLE_ABBREV = {"sr": "Senior", "jr": "Junior", "snr": "Senior", "jnr": "Junior"}


def _normalise(text: str) -> str:
    text = text.replace("’", "'").replace("‘", "'").replace("`", "")
    text = _QUOTED.sub(" ", text)
    text = " ".join(text.split())
    text = re.sub(r"^(?:[-*•]|\d+[.)]|#{1,6})\s+", "", text)  # a list item's bullet, a heading's #
    text = re.sub(r"(?<=[A-Za-z] )(?:eng|engr)\b\.?(?=$|[\s,;)(])", "Engineer", text, flags=re.I)
    # "relocating → lisbon, july": a move's arrow is its "to", a month after it its "in"
    text = re.sub(
        r"\b(relocat\w+|mov(?:e|es|ed|ing))\s*(?:->|→)\s*([^\s,;]+)(?:,\s*(?=(?:in\s+)?[A-Za-z]+$))?",
        lambda m: f"{m[1]} to {m[2]}" + (" in " if m.group(0).rstrip().endswith(",") else ""),
        text,
        flags=re.I,
    )
    text = re.sub(r"\s*(?:->|→)\s*(?=(?:now|currently)\s+(?:in|at|based)\b)", ", ", text)
    text = _truecase(_OPENER.sub("", text), chat=not text[:1].isupper())
    text = _CLOSER.sub("", text)
    text = re.sub(r"\bSWEs?\b", lambda m: "Software Engineer" + m.group(0)[3:], text)
    text = re.sub(r"\beff\.(?=\s)", "effective", text, flags=re.I)
    text = re.sub(r"\bprob\b\.?", "probably", text, flags=re.I)
    text = re.sub(r"(?<=\w) @ (?=[A-Za-z])", " at ", text)  # "works @ Tidewater", "me @ kestrel"
    text = re.sub(r"(?<![\w/])w/(?=\s)", "with", text, flags=re.I)  # "confirmed w/ Maren"
    text = re.sub(
        r"\b(?:yday|yest)\b|\btm(?:rw|r)\b",
        lambda m: "yesterday" if m.group(0).lower().startswith("y") else "tomorrow",
        text,
        flags=re.I,
    )
    text = re.sub(
        r"\b(wk|yr|mth)(s?)\b",
        lambda m: {"wk": "week", "yr": "year", "mth": "month"}[m.group(1).lower()] + m.group(2),
        text,
        flags=re.I,
    )
    text = _unassign(text)
    text = re.sub(r"(?<=\w) > (?=\w)", " over ", text)  # "coffee > any other drink"
    return re.sub(
        r"\b(Sr|Jr|Snr|Jnr)\.?(?= [A-Z])",
        lambda m: _TITLE_ABBREV[m.group(1).lower()],
        text,
    )


def extract(
    text: str, *, evidence_date: dt.date, names: NameBook, speaker: str | None = None
) -> list[Claim]:
    """The claims one short statement makes.

    Args:
        text: One statement (a sentence or two).
        evidence_date: The date of the note it came from; relative dates resolve
            against it.
        names: Known names and aliases; a name found here is a subject or a value
            in canonical form.
        speaker: Who "I"/"we"/"my" is; None (an agent speaking): first-person
            sentences give no claim about a person.

    Returns:
        Zero or one claims (zero when the statement states nothing of
        :data:`~mnemex.facts.claims.PREDICATES`, or is a question, code or an
        injected instruction).
    """
    raw = " ".join(text.split())
    kept = _KEEP_REQUEST.match(raw)
    if kept:  # the request asks nothing: what it asks to keep is the statement
        return [
            replace(claim, statement=raw)
            for claim in extract(
                kept["said"], evidence_date=evidence_date, names=names, speaker=speaker
            )
        ]
    # hostile text is refused as written; code, once chat forms are undone ("fyi Tom = X")
    normal = _normalise(raw)  # chat forms undone, assignments written with a colon
    if not raw or _HOSTILE.search(raw) or _refuse(normal):
        return []
    clean = _note_line(_value_last(normal), names)
    tx = _scan(clean, names)
    read = _read(tx, speaker, proposal=raw.rstrip().endswith("?"))
    if read is None:
        return []
    finding, subject = read
    times = [] if finding.aside else find_times(clean, evidence_date, future=is_future(clean))
    timing = _timing(tx, finding, times)
    future_cue = finding.future_cue and bool(
        re.search(
            r"(?:\b(?:is|are|am|will\s+be)\s+|'re\s+|'m\s+|\bwill\s+|'ll\s+|^|[.:;]\s*)\S*$",
            clean[: finding.cue],
            re.I,
        )
        or re.match(r"(?:moving|relocating)\b", clean[finding.cue :], re.I)
    )
    if timing.valid_from is not None:
        planned = timing.valid_from > evidence_date
    elif finding.closing:
        planned = False
    else:
        local = clean[max(0, finding.cue - 30) : finding.cue_end]
        planned = bool(
            re.search(
                r"\b(?:will|going\s+to|shall|plans?\s+to|planning\s+to|about\s+to)\b|'ll\b",
                local,
                re.I,
            )
            or (future_cue and "ing" in clean[finding.cue : finding.cue_end].lower())
            or (
                not timing.resolved
                and re.search(
                    r"\b(?:after|once|when|before|eventually|some\s*day|one\s+day|soon)\b",
                    timing.phrase or "",
                    re.I,
                )
            )
        )
    hedged = _HEDGE.search(clean) is not None or raw.rstrip().endswith("?")
    claim = Claim(
        subject=subject,
        predicate=finding.predicate,
        value=finding.value,
        statement=raw,
        kind=finding.kind,
        key=finding.key,
        condition=_condition(tx, finding),
        valid_from=timing.valid_from,
        valid_until=timing.valid_until,
        from_precision=timing.precision,
        time_phrase=timing.phrase,
        time_resolved=timing.resolved,
        planned=planned,
        hedged=hedged,
    )
    return [claim]


#: The kinds (of what is used or preferred) and the keys (of a project's attributes) the
#: reader knows: a claim from elsewhere (a model) must use these to land in the same slots.
KINDS: tuple[str, ...] = tuple(sorted(set(_KIND_WORDS.values())))
KEYS: tuple[str, ...] = tuple(sorted(set(PROJECT_KEYS.values())))

__all__ = ["GAZETTEER", "KEYS", "KINDS", "PROJECT_KEYS", "Software", "extract"]
