"""Cities the offline reader knows without being told: where people live and move.

A note typed in a hurry leaves a city's name in lower case (``ines: madrid``, ``tom ->
gdańsk``), and a name that is neither a known person nor a known tool could be anything;
a city on this list is a place however it is cased. The list is the world's large cities
and Europe's capitals and big towns, by their English names, with the local spelling and
common variants as aliases (``Lisboa``, ``Gdansk``). Names that are also everyday words or
first names (Nice, Reading, Split, Bath, Cork, Mobile, Phoenix, Sofia, Florence, Sydney,
Victoria, Austin, Nancy, Regina, Santiago) are left out: they are places only where a home
cue says so (``lives in Nice``), as any capitalised name is. A city the brain's own facts
or wiki know is a place too (:func:`mnemex.facts.record.name_book`), so this list is a
floor, not a ceiling.
"""

from __future__ import annotations

#: ``canonical | aliases`` per line; aliases comma-separated, matched case- and accent-folded.
_TABLE = """
Amsterdam | A'dam
Rotterdam | R'dam
The Hague | Den Haag
Utrecht |
Eindhoven |
Groningen |
Antwerp | Antwerpen, Anvers
Brussels | Bruxelles, Brussel
Ghent | Gent
Luxembourg City |
Paris |
Lyon | Lyons
Marseille | Marseilles
Toulouse |
Bordeaux |
Lille |
Strasbourg |
Montpellier |
London |
Manchester |
Birmingham |
Edinburgh |
Glasgow |
Leeds |
Liverpool |
Bristol |
Cambridge |
Oxford |
Dublin |
Belfast |
Lisbon | Lisboa
Porto | Oporto
Coimbra |
Braga |
Faro |
Madrid |
Barcelona |
Valencia |
Seville | Sevilla
Málaga | Malaga
Bilbao |
Zaragoza |
Palma |
Berlin |
Hamburg |
Munich | München, Muenchen
Cologne | Köln, Koeln
Frankfurt |
Stuttgart |
Düsseldorf | Dusseldorf, Duesseldorf
Leipzig |
Dresden |
Hanover | Hannover
Nuremberg | Nürnberg, Nuernberg
Bremen |
Vienna | Wien
Graz |
Salzburg |
Zürich | Zurich
Geneva | Genève, Geneve
Basel |
Bern |
Lausanne |
Milan | Milano
Rome | Roma
Turin | Torino
Naples | Napoli
Bologna |
Venice | Venezia
Copenhagen | København, Kobenhavn
Aarhus |
Stockholm |
Gothenburg | Göteborg, Goteborg
Malmö | Malmo
Oslo |
Bergen |
Helsinki |
Tampere |
Reykjavík | Reykjavik
Tallinn |
Riga |
Vilnius |
Warsaw | Warszawa
Kraków | Krakow, Cracow
Gdańsk | Gdansk
Wrocław | Wroclaw
Poznań | Poznan
Łódź | Lodz
Prague | Praha
Brno |
Bratislava |
Budapest |
Bucharest | București, Bucuresti
Cluj-Napoca | Cluj
Belgrade | Beograd
Zagreb |
Ljubljana |
Sarajevo |
Athens | Athína
Thessaloniki |
Istanbul |
Ankara |
Izmir |
Kyiv | Kiev
Lviv |
Odesa | Odessa
Minsk |
Moscow |
Saint Petersburg | St. Petersburg, St Petersburg
Chișinău | Chisinau
Tbilisi |
Yerevan |
Baku |
Tel Aviv |
Jerusalem |
Beirut |
Amman |
Cairo |
Casablanca |
Marrakesh | Marrakech
Tunis |
Algiers |
Lagos |
Abuja |
Accra |
Nairobi |
Addis Ababa |
Kampala |
Kigali |
Dar es Salaam |
Johannesburg |
Cape Town |
Durban |
Dubai |
Abu Dhabi |
Doha |
Riyadh |
Tehran |
Karachi |
Lahore |
Islamabad |
Delhi | New Delhi
Mumbai | Bombay
Bangalore | Bengaluru
Hyderabad |
Chennai | Madras
Kolkata | Calcutta
Pune |
Ahmedabad |
Dhaka |
Colombo |
Kathmandu |
Bangkok |
Hanoi |
Ho Chi Minh City | Saigon
Kuala Lumpur |
Singapore |
Jakarta |
Manila |
Hong Kong |
Shanghai |
Beijing |
Shenzhen |
Guangzhou |
Chengdu |
Hangzhou |
Taipei |
Seoul |
Busan |
Tokyo |
Osaka |
Kyoto |
Yokohama |
Melbourne |
Brisbane |
Perth |
Auckland |
Wellington |
New York | NYC, New York City
Los Angeles |
San Francisco |
Seattle |
Portland |
Boston |
Chicago |
Washington, D.C. | Washington DC, Washington D.C.
Philadelphia |
Atlanta |
Miami |
Dallas |
Houston |
Denver |
San Diego |
San Jose |
Toronto |
Montreal | Montréal
Vancouver |
Ottawa |
Calgary |
Mexico City | Ciudad de México
Guadalajara |
Monterrey |
Bogotá | Bogota
Medellín | Medellin
Lima |
Buenos Aires |
Montevideo |
São Paulo | Sao Paulo
Rio de Janeiro |
Brasília | Brasilia
Quito |
Caracas |
Havana |
"""


def _load() -> dict[str, str]:
    out: dict[str, str] = {}
    for line in _TABLE.strip().splitlines():
        canonical, _, aliases = (part.strip() for part in line.partition("|"))
        out.setdefault(canonical, canonical)
        for alias in aliases.split(","):
            if alias.strip():
                out.setdefault(alias.strip(), canonical)
    return out


#: Every name and alias of a built-in city, and the city's canonical name.
CITIES: dict[str, str] = _load()
