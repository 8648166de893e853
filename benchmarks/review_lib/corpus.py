"""The review corpus: pinned PyPI projects, their split, and the files analysed in each.

Each sdist is fetched and verified by ``competence_lib.corpus.fetch`` (the same
code the competence and test-generation benchmarks use) into
``~/.cache/remora/review`` (never into the repository); its sha256 is checked on
every use. None of these projects is used by any other benchmark or test here.

The split (docs/competence.md, "Review benchmark"): the development part's
labels may be studied to find rules; the held-out part is labelled only to
measure, after the rules are in, and no toolkit code or comment may cite it.

The files of a project are chosen by one fixed rule, the same for every project:
every ``.py`` file under its import package (a folder, or a single module),
sorted by path, except test code (``tests``/``test``/``testing`` folders,
``test_*.py``, ``*_test.py``, ``conftest.py``, a suite in one ``tests.py`` or ``test.py``),
``__main__.py``, and files that
define no function or class (re-exports, version strings, type aliases); the
files are taken whole in that order while their functions, methods and classes
add up to at most ``MAX_DEFINITIONS`` (the first file always), which keeps the
whole corpus within minutes on two cores with the embedded model.
"""

from __future__ import annotations

import ast
import os
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from competence_lib.corpus import PARTS, Project, copy_project, fetch, is_suite, remove_own_tests

from review_lib.strip import StripError, strip_docstrings

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "remora" / "review"
_TEST_FOLDERS = {"tests", "test", "testing"}
# The file rule's limit (--max-definitions; 0: every file of the package).
MAX_DEFINITIONS = 15


class ReviewCorpusError(Exception):
    """A project of the review corpus cannot be prepared; the message says what to do."""


@dataclass(frozen=True, slots=True)
class ReviewProject:
    """One pinned sdist (its ``part`` says which side of the split) and its import package."""

    pin: Project
    # The import package inside the unpacked sdist: a folder, or one module file.
    package: str

    @property
    def part(self) -> str:
        return self.pin.part

    @property
    def name(self) -> str:
        return self.pin.name

    @property
    def key(self) -> str:
        return self.pin.key


CORPUS: tuple[ReviewProject, ...] = (
    ReviewProject(
        Project(
            "isodate",
            "0.7.2",
            "4cd1aa0f43ca76f4a6c6c0292a85f40b35ec2e43e315b59f06e6d32171a953e6",
            (),
            part="dev",
        ),
        "src/isodate",
    ),
    ReviewProject(
        Project(
            "itsdangerous",
            "2.2.0",
            "e0050c0b7da1eea53ffaf149c0cfbb5c6e2e2b69c4bef22c81fa6eb73e5f6173",
            (),
            part="dev",
        ),
        "src/itsdangerous",
    ),
    ReviewProject(
        Project(
            "tomli",
            "2.2.1",
            "cd45e1dc79c835ce60f7404ec8119f2eb06d38b1deba146f07ced3bbc44505ff",
            (),
            # Held out until its labels at 4fe5bf0; a lint rule was then built from them.
            part="dev",
        ),
        "src/tomli",
    ),
    ReviewProject(
        Project(
            "semver",
            "3.1.1",
            "149b26cabada6f63212f97e94505d21578cb1d280cf714827f328d5e70765fea",
            (),
            # Held out until its labels at 8c9d859 (docstrings only: no test or sample
            # proposals); its labels were then studied for the docstring rules.
            part="dev",
        ),
        "src/semver",
    ),
    ReviewProject(
        Project(
            "jsonpointer",
            "3.12",
            "7a3dcc11b64053eaa9c549e85e413f8d40a075215f793a331bed9182a14251ae",
            (),
            # Held out until its labels at 698bdad/3fbd2cf; studied since.
            part="dev",
        ),
        "jsonpointer.py",
    ),
    ReviewProject(
        Project(
            "expiringdict",
            "1.2.2",
            "300fb92a7e98f15b05cf9a856c1415b3bc4f2e132be07daa326da6414c23ee09",
            (),
            # Held out until its labels at 698bdad/3fbd2cf; studied since.
            part="dev",
        ),
        "expiringdict",
    ),
    ReviewProject(
        Project(
            "pylru",
            "1.3.3",
            "c540c0f3aea3e03493b520807fbf2d67e95f4f97532a919989960707e2fabb2d",
            (),
            # Held out until its labels at e188474; studied since.
            part="dev",
        ),
        "pylru.py",
    ),
    ReviewProject(
        Project(
            "ordered-set",
            "4.1.0",
            "694a8e44c87657c59292ede72891eb91d34131f6531463aab3009191c77364a8",
            (),
            # Held out until its labels at 6feec84; studied since.
            part="dev",
        ),
        "ordered_set",
    ),
    ReviewProject(
        Project(
            "texttable",
            "1.7.2",
            "dc16ea6b35fbf5291ba6ef79d79e37d9b3ca6acd7bae3ca3450488d7c2e19c99",
            (),
            # Held out until its labels at 9963f11; studied since.
            part="dev",
        ),
        "texttable.py",
    ),
    ReviewProject(
        Project(
            "intervaltree",
            "3.2.1",
            "f3f7e8baeb7dd75b9f7a6d33cf3ec10025984a8e66e3016d537e52130c73cfe2",
            (),
            # Held out until its labels at d377c4f; studied since.
            part="dev",
        ),
        "intervaltree",
    ),
    ReviewProject(
        Project(
            "addict",
            "2.4.0",
            "b3b2210e0e067a281f5646c8c5db92e99b7231ea8b0eb5f74dbdf9e259d4e494",
            (),
            # Held out until its labels at e497fa0; studied since.
            part="dev",
        ),
        "addict",
    ),
    ReviewProject(
        Project(
            "hashids",
            "1.3.1",
            "6c3dc775e65efc2ce2c157a65acb776d634cb814598f406469abef00ae3f635c",
            (),
            # Held out until its labels at e497fa0; studied since.
            part="dev",
        ),
        "hashids.py",
    ),
    ReviewProject(
        Project(
            "tinydb",
            "4.9.0",
            "6928b1fa785186bda7952a0ba05aaeedc883ede565ca9c7d608de44e5e75de70",
            (),
            # Held out until its labels at d65dac4 (the whole package); studied since.
            part="dev",
        ),
        "tinydb",
    ),
    ReviewProject(
        Project(
            "simpleeval",
            "1.0.8",
            "b417f869c11f2de034eb919820a825f35d12ce99f63a43971947ce73679eb9ba",
            (),
            # Held out until its labels at 4567564; studied since.
            part="dev",
        ),
        "simpleeval.py",
    ),
    ReviewProject(
        Project(
            "jmespath",
            "1.1.0",
            "472c87d80f36026ae83c6ddd0f1d05d4e510134ed462851fd5f754c8c3cbb88d",
            (),
            # Held out until its labels at d8cbb15 (the whole package); studied since.
            part="dev",
        ),
        "jmespath",
    ),
    ReviewProject(
        Project(
            "munch",
            "4.0.0",
            "542cb151461263216a4e37c3fd9afc425feeaf38aaa3025cd2a981fadb422235",
            (),
            # Held out until its labels at 6908415; studied since.
            part="dev",
        ),
        "munch",
    ),
    ReviewProject(
        Project(
            "dpath",
            "2.2.0",
            "34f7e630dc55ea3f219e555726f5da4b4b25f2200319c8e6902c394258dd6a3e",
            (),
            # Held out until its labels at 1ba6b5d (the whole package); studied since.
            part="dev",
        ),
        "dpath",
    ),
    ReviewProject(
        Project(
            "multipledispatch",
            "1.0.0",
            "5c839915465c68206c3e9c473357908216c28383b425361e5d144594bf85a7e0",
            (),
            # Held out until its labels at 15327ff (the whole package); studied since.
            part="dev",
        ),
        "multipledispatch",
    ),
    ReviewProject(
        Project(
            "uritemplate",
            "4.2.0",
            "480c2ed180878955863323eea31b0ede668795de182617fef9c6ca09e6ec9d0e",
            (),
            # Held out until its labels at 3ea6354 (the whole package); studied since.
            part="dev",
        ),
        "uritemplate",
    ),
    ReviewProject(
        Project(
            "cron-descriptor",
            "2.2.1",
            "6759056f43b3cabca274b5df182bb63571f2f383bdd4d9d3ff4662c527430a65",
            (),
            # Held out until its labels at 95c0fa9 (the whole package); studied since.
            part="dev",
        ),
        "cron_descriptor",
    ),
    ReviewProject(
        Project(
            "pyhumps",
            "3.8.0",
            "498026258f7ee1a8e447c2e28526c0bea9407f9a59c03260aee4bd6c04d681a3",
            (),
            # Held out until its labels at fff6bd8 (the whole package); studied since.
            part="dev",
        ),
        "humps",
    ),
    ReviewProject(
        Project(
            "isoweek",
            "1.3.3",
            "73f3f7bac443e05a3ab45c32a72048b0c4f26d53d81462ec4b142c7581d3ffe8",
            (),
            # Held out until its labels at 371d024; studied since.
            part="dev",
        ),
        "isoweek.py",
    ),
    ReviewProject(
        Project(
            "base58",
            "2.1.1",
            "c5d0cb3f5b6e81e8e35da5754388ddcc6d0d14b6c6a132cb93d69ed580a7278c",
            (),
            # Held out until its labels at aa522ee; studied since.
            part="dev",
        ),
        "base58",
    ),
    ReviewProject(
        Project(
            "roman-numerals",
            "4.1.0",
            "1af8b147eb1405d5839e78aeb93131690495fe9da5c91856cb33ad55a7f1e5b2",
            (),
            # Held out until its labels at 72e1615; studied since.
            part="dev",
        ),
        "roman_numerals",
    ),
    ReviewProject(
        Project(
            "pathspec",
            "0.12.1",
            "a482d51503a1ab33b1c67a6c3813a26953dbdc71c31dacaef9a838c4e29f5712",
            (),
            # Held out until its labels at 2d78b1c; studied since.
            part="dev",
        ),
        "pathspec",
    ),
    ReviewProject(
        Project(
            "deepmerge",
            "2.0",
            "5c3d86081fbebd04dd5de03626a0607b809a98fb6ccba5770b62466fe940ff20",
            (),
            # Held out until its labels at b4a336d; studied since.
            part="dev",
        ),
        "deepmerge",
    ),
    ReviewProject(
        Project(
            "natsort",
            "8.4.0",
            "45312c4a0e5507593da193dedd04abb1469253b601ecaf63445ad80f0a1ea581",
            (),
            # Held out until its labels at 7914232; studied since.
            part="dev",
        ),
        "natsort",
    ),
    ReviewProject(
        Project(
            "tabulate",
            "0.9.0",
            "0095b12bf5966de529c0feb1fa08671671b3368eec77d7ef7ab114be2c068b3c",
            (),
            # Held out until its labels at 5dd9a69; studied since.
            part="dev",
        ),
        "tabulate",
    ),
    ReviewProject(
        Project(
            "bidict",
            "0.23.1",
            "03069d763bc387bbd20e7d49914e75fc4132a41937fa3405417e1a5a2d006d71",
            (),
            # Held out until its labels at 7fe3f18; studied since.
            part="dev",
        ),
        "bidict",
    ),
    ReviewProject(
        Project(
            "xmltodict",
            "0.14.2",
            "201e7c28bb210e374999d1dde6382923ab0ed1a8a5faeece48ab525b7810a553",
            (),
            # Held out until its labels at 626c985; studied since.
            part="dev",
        ),
        "xmltodict.py",
    ),
    ReviewProject(
        Project(
            "python-dotenv",
            "1.0.1",
            "e324ee90a023d808f1959c46bcbc04446a10ced277783dc6ee09987c37ec10ca",
            (),
            # Held out until its labels at 865f599; studied since.
            part="dev",
        ),
        "src/dotenv",
    ),
    ReviewProject(
        Project(
            "pyee",
            "12.0.0",
            "c480603f4aa2927d4766eb41fa82793fe60a82cbfdb8d688e0d08c55a534e145",
            (),
            # Held out until its labels at 7d07786; studied since.
            part="dev",
        ),
        "pyee",
    ),
    ReviewProject(
        Project(
            "blinker",
            "1.8.2",
            "8f77b09d3bf7c795e969e9486f39c2c5e9c39d4ee07424be2bc594ece9642d83",
            (),
            # Held out until its labels at 6d106d0; studied since.
            part="dev",
        ),
        "src/blinker",
    ),
    ReviewProject(
        Project(
            "cachelib",
            "0.13.0",
            "209d8996e3c57595bee274ff97116d1d73c4980b2fd9a34c7846cd07fd2e1a48",
            (),
            # Held out until its labels at 653458d; studied since.
            part="dev",
        ),
        "src/cachelib",
    ),
    ReviewProject(
        Project(
            "termcolor",
            "2.4.0",
            "aab9e56047c8ac41ed798fa36d892a37aca6b3e9159f3e0c24bc64a9b3ac7b7a",
            (),
            # Held out until its labels at cc8ebaa; studied since.
            part="dev",
        ),
        "src/termcolor",
    ),
    ReviewProject(
        Project(
            "python-slugify",
            "9.1.3",
            "90e997f2e0987239ce95e12f700086eb18e1d1d3ee22624fbbdbd095afca42b6",
            (),
            # Held out until its labels at a6a579a; studied since.
            part="dev",
        ),
        "slugify",
    ),
    ReviewProject(
        Project(
            "iso8601",
            "2.1.0",
            "6b1d3829ee8921c4301998c909f7829fa9ed3cbdac0d3b16af2d743aed1ba8df",
            (),
            # Held out until its labels at c889c3c; studied since.
            part="dev",
        ),
        "iso8601",
    ),
    ReviewProject(
        Project(
            "pyjokes",
            "0.8.3",
            "5735d31e973d5b6934b46b89431505733c3110f9b66eac0ff0be86f7f3646423",
            (),
            # Held out until its labels at 77afd28; studied since.
            part="dev",
        ),
        "pyjokes",
    ),
    ReviewProject(
        Project(
            "pluggy",
            "1.6.0",
            "7dcc130b76258d33b90f61b658791dede3486c3e6bfb003ee5c9bfb396dd22f3",
            (),
            # Held out until its labels at 5fe6290; studied since.
            part="dev",
        ),
        "src/pluggy",
    ),
    ReviewProject(
        Project(
            "schedule",
            "1.2.2",
            "15fe9c75fe5fd9b9627f3f19cc0ef1420508f9f9a46f45cd0769ef75ede5f0b7",
            (),
            # Held out until its labels at a2e06f1; studied since.
            part="dev",
        ),
        "schedule",
    ),
    ReviewProject(
        Project(
            "validators",
            "0.35.0",
            "992d6c48a4e77c81f1b4daba10d16c3a9bb0dbb79b3a19ea847ff0928e70497a",
            (),
            # Held out until its labels at 1ee0d5b; studied since.
            part="dev",
        ),
        "src/validators",
    ),
    ReviewProject(
        Project(
            "tenacity",
            "9.1.2",
            "1169d376c297e7de388d18b4481760d478b0e99a777cad3a9c86e556f4b697cb",
            (),
            # Held out until its labels at 0451d25; studied since.
            part="dev",
        ),
        "tenacity",
    ),
    ReviewProject(
        Project(
            "shortuuid",
            "1.0.13",
            "3bb9cf07f606260584b1df46399c0b87dd84773e7b25912b7e391e30797c5e72",
            (),
            # Held out until its labels at a55a43f; studied since.
            part="dev",
        ),
        "shortuuid",
    ),
    ReviewProject(
        Project(
            "jsonpatch",
            "1.33",
            "9fcd4009c41e6d12348b4a0ff2563ba56a2923a7dfee731d004e212e1ee5030c",
            (),
            # Held out until its labels at ab03042; studied since.
            part="dev",
        ),
        "jsonpatch.py",
    ),
    ReviewProject(
        Project(
            "nameparser",
            "1.1.3",
            "aa2400ad71ccf8070675b40311a257c934659f91854b154e1ba6c264761c049d",
            (),
            # Held out until its labels at f414aa0; studied since.
            part="dev",
        ),
        "nameparser",
    ),
    ReviewProject(
        Project(
            "sortedcontainers",
            "2.4.0",
            "25caa5a06cc30b6b83d11423433f65d1f9d76c4c6a0c90e3379eaa43b9bfdb88",
            (),
            # Held out until its labels at 3747a1a; studied since.
            part="dev",
        ),
        "sortedcontainers",
    ),
    ReviewProject(
        Project(
            "cssselect",
            "1.2.0",
            "666b19839cfaddb9ce9d36bfe4c969132c647b92fc9088c4e23f786b30f1b3dc",
            (),
            # Held out until its labels at d3829e8; studied since.
            part="dev",
        ),
        "cssselect",
    ),
    ReviewProject(
        Project(
            "semantic-version",
            "2.10.0",
            "bdabb6d336998cbb378d4b9db3a4b56a1e3235701dc05ea2690d9a997ed5041c",
            (),
            # Held out until its labels at 620f661; studied since.
            part="dev",
        ),
        "semantic_version",
    ),
    ReviewProject(
        Project(
            "sqlparse",
            "0.6.1",
            "ca722573f848ff2d30e40ea30f53a104b7dea7635ea9285891263eb2c58fb6e7",
            (),
            # Held out until its labels at a0d3b15; studied since.
            part="dev",
        ),
        "sqlparse",
    ),
    ReviewProject(
        Project(
            "flatten-dict",
            "0.5.0",
            "ca89664d0bc9552d525ee756726b5a755c17f65b5bf23d0a1f07841f181428b7",
            (),
            # Held out until its labels at a0d3b15; studied since.
            part="dev",
        ),
        "src/flatten_dict",
    ),
    ReviewProject(
        Project(
            "mccabe",
            "0.7.0",
            "348e0240c33b60bbdf4e523192ef919f28cb2c3d7d5c7794f74009290f236325",
            (),
            # Held out until its labels at 1356493; studied since.
            part="dev",
        ),
        "mccabe.py",
    ),
    ReviewProject(
        Project(
            "astor",
            "0.8.1",
            "6a6effda93f4e1ce9f618779b2dd1d9d84f1e32812c23a29b3fff6fd7f63fa5e",
            (),
            # Held out until its labels at 1356493; studied since.
            part="dev",
        ),
        "astor",
    ),
    ReviewProject(
        Project(
            "pytimeparse",
            "1.1.10",
            "ecf0ee613a72cb0b1d3d5404bd398a64266576fc36ccf3149178af6f2ec6f736",
            (),
            # Held out until its labels at 838da8c; studied since.
            part="dev",
        ),
        "pytimeparse",
    ),
    ReviewProject(
        Project(
            "durationpy",
            "0.11",
            "181898e1ae282e288f0a2291829656bf1b6b3aadf30a97993b85db4943642905",
            (),
            # Held out until its labels at 838da8c; studied since.
            part="dev",
        ),
        "durationpy",
    ),
    ReviewProject(
        Project(
            "colorama",
            "0.4.6",
            "08695f5cb7ed6e0531a20572697297273c47b8cae5a63ffc6d6ed5c201be6e44",
            (),
            # Held out until its labels at feac8d5; studied since.
            part="dev",
        ),
        "colorama",
    ),
    ReviewProject(
        Project(
            "dictdiffer",
            "0.10.0",
            "0b912acf663949d73b820d3ed59362140a188ab742c94efe13c762dbd24cbbd3",
            (),
            # Held out until its labels at feac8d5; studied since.
            part="dev",
        ),
        "dictdiffer",
    ),
    ReviewProject(
        Project(
            "python-string-utils",
            "1.0.0",
            "dcf9060b03f07647c0a603408dc8b03f807f3b54a05c6e19eb14460256fac0cb",
            (),
            # Held out until its labels at feac8d5; studied since.
            part="dev",
        ),
        "string_utils",
    ),
    ReviewProject(
        Project(
            "rfc3986",
            "2.0.0",
            "97aacf9dbd4bfd829baad6e6309fa6573aaf1be3f6fa735c8ab05e46cecb261c",
            (),
            # Held out until its labels at 4c00b0b; studied since.
            part="dev",
        ),
        "src/rfc3986",
    ),
    ReviewProject(
        Project(
            "hyperlink",
            "21.0.0",
            "427af957daa58bc909471c6c40f74c5450fa123dd093fc53efd2e91d2705a56b",
            (),
            # Held out until its labels at cbc837e (docstrings, lint) and 66a3f4d (tests).
            part="dev",
        ),
        "src/hyperlink",
    ),
    ReviewProject(
        Project(
            "pathvalidate",
            "3.3.1",
            "b18c07212bfead624345bb8e1d6141cdcf15a39736994ea0b94035ad2b1ba177",
            (),
            # Held out until its labels at c352cbc; studied since.
            part="dev",
        ),
        "pathvalidate",
    ),
    ReviewProject(
        Project(
            "crontab",
            "1.0.5",
            "f80e01b4f07219763a9869f926dd17147278e7965a928089bca6d3dc80ae46d5",
            (),
            # Held out until its label at d23526d (one change: too small a project); dev since.
            part="dev",
        ),
        "crontab",
    ),
    ReviewProject(
        Project(
            "voluptuous",
            "0.16.0",
            "006535e22fed944aec17bef6e8725472476194743c87bd233e912eb463f8ff05",
            (),
            # Held out until its labels at a00fa28 (0.5B, all four operations; 1.5B docstrings).
            part="dev",
        ),
        "voluptuous",
    ),
    ReviewProject(
        Project(
            "cerberus",
            "1.3.8",
            "579554887ffd189226774b87570f4a76db75cf0efcbaffcacd5e98b8ee877f61",
            (),
            # Held out until its labels at 5846c6e (docstrings and lint only: its rules'
            # schemas are its methods' docstrings, so the stripped copy does not import).
            part="dev",
        ),
        "cerberus",
    ),
    ReviewProject(
        Project(
            "mistune",
            "3.4.0",
            "2eaf7952af928ca8d33b779762effc1da517b62c6ad85ec8ca957e3b07b9782a",
            (),
            # Held out until its labels at ba3e179 (every file: --max-definitions 0).
            part="dev",
        ),
        "src/mistune",
    ),
    ReviewProject(
        Project(
            "emoji",
            "2.16.0",
            "ff9e9b1c48389ef78ed1787e7693c555e84e6bb9bac16be1fd65e1616dbf80c8",
            (),
            # Held out until its labels at 1ae242d8 (every file: --max-definitions 0).
            part="dev",
        ),
        "emoji",
    ),
    ReviewProject(
        Project(
            "isbnlib",
            "3.10.14",
            "96f90864c77b01f55fa11e5bfca9fd909501d9842f3bc710d4eab85195d90539",
            (),
            # Held out until its labels at c8e05207 (every file: --max-definitions 0).
            part="dev",
        ),
        "isbnlib",
    ),
    ReviewProject(
        Project(
            "zipp",
            "4.1.2",
            "cf474b90b07ea932637e17c6b9479de2b2882900b0d311bdaf4f5c000a15a97f",
            (),
            # Held out until its labels at e8cc1d87 (every file: --max-definitions 0).
            part="dev",
        ),
        "zipp",
    ),
    ReviewProject(
        Project(
            "more-itertools",
            "10.7.0",
            "9fddd5403be01a94b204faadcff459ec3568cf110265d3c54323e1e866ad29d3",
            (),
            # Held out until its labels at b4ee9fc3 (every file: --max-definitions 0).
            part="dev",
        ),
        "more_itertools",
    ),
    ReviewProject(
        Project(
            "humanfriendly",
            "10.0",
            "6b0b831ce8f15f7300721aa49829fc4e83921a9a301cc7f606be6686a2288ddc",
            (),
            # Held out until its labels at 2a636d8c (every file: --max-definitions 0).
            part="dev",
        ),
        "humanfriendly",
    ),
    ReviewProject(
        Project(
            "pyjwt",
            "2.15.1",
            "4f259e80cdfb6b3fc18a7de51fd1ef9ec79652f25019bae68975ca2468a34df8",
            (),
            # Held out until its labels at 7aa22b6c (every file: --max-definitions 0).
            part="dev",
        ),
        "jwt",
    ),
    ReviewProject(
        Project(
            "smartypants",
            "2.0.2",
            "39d64ce1d7cc6964b698297bdf391bc12c3251b7f608e6e55d857cd7c5f800c6",
            (),
            # Held out until its labels at 8ea4aabc (every file: --max-definitions 0).
            part="dev",
        ),
        "smartypants.py",
    ),
    ReviewProject(
        Project(
            "mdurl",
            "0.1.2",
            "bb413d29f5eea38f31dd4754dd7377d4465116fb207585f97bf925588687c1ba",
            (),
            # Held out until its labels at 8ea4aabc (every file: --max-definitions 0).
            part="dev",
        ),
        "src/mdurl",
    ),
    ReviewProject(
        Project(
            "pytoml",
            "0.1.21",
            "8eecf7c8d0adcff3b375b09fe403407aa9b645c499e5ab8cac670ac4a35f61e7",
            (),
            # Held out until its labels at 60b1945c (every file: --max-definitions 0).
            part="dev",
        ),
        "pytoml",
    ),
    ReviewProject(
        Project(
            "ply",
            "3.11",
            "00c7c1aaa88358b9c765b6d3000c6eec0ba42abca5351b095321aef446081da3",
            (),
            # Held out until its labels at 532ef7a9 (every file: --max-definitions 0).
            part="dev",
        ),
        "ply",
    ),
    ReviewProject(
        Project(
            "pyrsistent",
            "0.20.0",
            "4c48f78f62ab596c679086084d0dd13254ae4f3d6c72a83ffdf5ebdef8f265a4",
            (),
            # Held out until its labels at 8ea9eda2 (every file: --max-definitions 0).
            part="dev",
        ),
        "pyrsistent",
    ),
    ReviewProject(
        Project(
            "pystache",
            "0.6.8",
            "3707518e6a4d26dd189b07c10c669b1fc17df72684617c327bd3550e7075c72c",
            (),
            # Held out until its labels at 1f00e07a (every file: --max-definitions 0).
            part="dev",
        ),
        "pystache",
    ),
    ReviewProject(
        Project(
            "hjson",
            "3.1.0",
            "55af475a27cf83a7969c808399d7bccdec8fb836a07ddbd574587593b9cdcf75",
            (),
            # Held out until its labels at d70cacf7 (every file: --max-definitions 0).
            part="dev",
        ),
        "hjson",
    ),
    ReviewProject(
        Project(
            "mistletoe",
            "1.6.0",
            "92f066c4720a25fa24bf260e6413702bbff3a5b8a93af314cb6cd8589726a8e1",
            (),
            # Held out until its labels at cbc3301e (every file: --max-definitions 0).
            part="dev",
        ),
        "mistletoe",
    ),
    ReviewProject(
        Project(
            "textdistance",
            "4.6.3",
            "d6dabc50b4ea832cdcf0e1e6021bd0c7fcd9ade155888d79bb6a3c31fce2dc6f",
            (),
            # Held out until its labels at 05011984 (every file: --max-definitions 0).
            part="dev",
        ),
        "textdistance",
    ),
    ReviewProject(
        Project(
            "glob2",
            "0.7",
            "85c3dbd07c8aa26d63d7aacee34fa86e9a91a3873bc30bf62ec46e531f92ab8c",
            (),
            # Held out until its labels at d421ee52 (every file: --max-definitions 0).
            part="dev",
        ),
        "glob2",
    ),
    ReviewProject(
        Project(
            "jsonpickle",
            "4.1.4",
            "8adf24cca611809b55ff5ed2ace850e1a3e4370dad5d363df71569b8f46c9645",
            (),
            # Held out until its labels at 6930ef8f; studied since.
            part="dev",
        ),
        "jsonpickle",
    ),
    ReviewProject(
        Project(
            "pygtrie",
            "2.6.2",
            "879264597743ef52bf80f2dff085364088c0848ae22544db95dad2bf52e06471",
            (),
            # Held out until its labels at 03d3e642; studied since.
            part="dev",
        ),
        "pygtrie.py",
    ),
    ReviewProject(
        Project(
            "latexcodec",
            "3.0.1",
            "e78a6911cd72f9dec35031c6ec23584de6842bfbc4610a9678868d14cdfb0357",
            (),
            # Held out until its labels at de450268; studied since.
            part="dev",
        ),
        "latexcodec",
    ),
    ReviewProject(
        Project(
            "zxcvbn",
            "4.5.0",
            "70392c0fff39459d7f55d0211151401e79e76fcc6e2c22b61add62900359c7c1",
            (),
            # Held out until its labels at 522ffcb5; studied since.
            part="dev",
        ),
        "zxcvbn",
    ),
    ReviewProject(
        Project(
            "sqlitedict",
            "2.1.0",
            "03d9cfb96d602996f1d4c2db2856f1224b96a9c431bdd16e78032a72940f9e8c",
            (),
            # Held out until its labels at 3ee3e8ce; studied since.
            part="dev",
        ),
        "sqlitedict.py",
    ),
    ReviewProject(
        Project(
            "tomli-w",
            "1.2.0",
            "2dd14fac5a47c27be9cd4c976af5a12d87fb1f0b4512f81d69cce3b35ae25021",
            (),
            # Held out until its labels at b75137be; studied since.
            part="dev",
        ),
        "src/tomli_w",
    ),
    ReviewProject(
        Project(
            "asciitree",
            "1.0.0",
            "0c396808c13cab27b60cbe402b99ef37fa681c6b59d337a008719efa201cdd07",
            (),
            # Held out until its labels at b75137be; studied since.
            part="dev",
        ),
        "asciitree",
    ),
    ReviewProject(
        Project(
            "retrying",
            "1.4.2",
            "d102e75d53d8d30b88562d45361d6c6c934da06fab31bd81c0420acb97a8ba39",
            (),
            # Held out until its labels at b47e9921; studied since.
            part="dev",
        ),
        "retrying.py",
    ),
    ReviewProject(
        Project(
            "sortedcollections",
            "2.1.0",
            "d8e9609d6c580a16a1224a3dc8965789e03ebc4c3e5ffd05ada54a2fed5dcacd",
            (),
            # Held out until its labels at 047eac95; studied since.
            part="dev",
        ),
        "sortedcollections",
    ),
    ReviewProject(
        Project(
            "parsimonious",
            "0.11.0",
            "e080377d98957beec053580d38ae54fcdf7c470fb78670ba4bf8b5f9d5cad2a9",
            (),
            # Held out until its labels at 322b6510; studied since.
            part="dev",
        ),
        "parsimonious",
    ),
    ReviewProject(
        Project(
            "boolean.py",
            "5.0",
            "60cbc4bad079753721d32649545505362c754e121570ada4658b852a3a318d95",
            (),
            # Held out until its labels at 66a4c8b2; studied since.
            part="dev",
        ),
        "boolean",
    ),
    ReviewProject(
        Project(
            "uritools",
            "6.1.3",
            "3a498e7e85ef3249343d5710618d641a414da0fbae6d23053ada7976ee83ea5f",
            (),
            # Held out until its labels at 2efe1530; studied since.
            part="dev",
        ),
        "src/uritools",
    ),
    ReviewProject(
        Project(
            "dicttoxml",
            "1.7.16",
            "6f36ce644881db5cd8940bee9b7cb3f3f6b7b327ba8a67d83d3e2caa0538bf9d",
            (),
            # Held out until its labels at 9560cce8; studied since.
            part="dev",
        ),
        "dicttoxml.py",
    ),
    # Both say their tests run under pytest (setup.cfg's [tool:pytest], a pytest extra),
    # so the sample_data operation has somewhere to write (it offered nothing on either).
    ReviewProject(
        Project(
            "colorlog",
            "6.12.0",
            "2a7924c1dadf18b22a0eb8b06d1c7b01d5341707ec1641eb6fcc4fde0c3e8e5f",
            (),
            # Held out until its labels at 546c929b; studied since.
            part="dev",
        ),
        "colorlog",
    ),
    ReviewProject(
        Project(
            "webencodings",
            "0.6.1",
            "565f9ad031c702dae404e27a099e3e09186a3ab1b9520f06d215502b651fd910",
            (),
            # Held out until its labels at 546c929b; studied since.
            part="dev",
        ),
        "webencodings",
    ),
    # Its one dependency, jsonschema, is Remora's own; its tests are unittest's.
    ReviewProject(
        Project(
            "jsonmerge",
            "1.9.2",
            "c43757e0180b0e19b7ae4c130ad42a07cc580c31912f61f4823e8eaf2fa394a3",
            (),
            # Held out until its labels at 8c462fdd; studied since.
            part="dev",
        ),
        "jsonmerge",
    ),
    # No dependencies; its tests are unittest's.
    ReviewProject(
        Project(
            "unidiff",
            "1.0.1",
            "d9425bc516390c54743a1045b2c1c97f02d245a913a241dd499f958adb2df998",
            (),
            # Held out until its labels at cca370a4; studied since.
            part="dev",
        ),
        "unidiff",
    ),
    # No dependencies; its tests are pytest's (tox.ini). Run as held out at 787c388f by
    # mistake: its modules are development in the competence and testgen-peers corpora, so
    # its figures were never held-out evidence (test_corpus_parts refuses such a pin).
    ReviewProject(
        Project(
            "cachetools",
            "8.0.0",
            "5ed01bd676800d51f0025605e4fd8ad0891550513e7b0a4c3da478463764e5c3",
            (),
            part="dev",
        ),
        "src/cachetools",
    ),
    # No dependencies; its unittest suite (dotmap/test.py) left out; 697 lines in one module.
    ReviewProject(
        Project(
            "dotmap",
            "1.3.30",
            "5821a7933f075fb47563417c0e92e0b7c031158b4c9a6a7e56163479b658b368",
            (),
            # Held out until its labels at 781ac4ba; studied since.
            part="dev",
        ),
        "dotmap",
    ),
    # No dependencies and no tests in its sdist; 100 lines in one module.
    ReviewProject(
        Project(
            "mergedeep",
            "1.3.4",
            "0096d52e9dad9939c3d975a774666af186eda617e6ca84df4c94dec30004f2a8",
            (),
            # Held out until its labels at bcbe1b47; studied since.
            part="dev",
        ),
        "mergedeep",
    ),
    # No required dependencies (python-Levenshtein is an optional speed-up: difflib
    # without it); about 800 lines in five modules; its test_fuzzywuzzy.py left out.
    ReviewProject(
        Project(
            "fuzzywuzzy",
            "0.18.0",
            "45016e92264780e58972dca1b3d939ac864b78437422beecebb3095f8efd00e8",
            (),
            # Held out until its labels at 5252793f; studied since.
            part="dev",
        ),
        "fuzzywuzzy",
    ),
    # No dependencies; about 1,000 lines in its package's __init__ (its fonts are data);
    # its pyfiglet/test.py suite left out.
    ReviewProject(
        Project(
            "pyfiglet",
            "1.0.4",
            "db9c9940ed1bf3048deff534ed52ff2dafbbc2cd7610b17bb5eca1df6d4278ef",
            (),
            # Held out until its labels at 2eec0571; studied since.
            part="dev",
        ),
        "pyfiglet",
    ),
    # No dependencies; about 250 lines of code in src/timeago (its locales are data);
    # its test/ folder left out.
    ReviewProject(
        Project(
            "timeago",
            "1.0.15",
            "cfce420d82892af6b2439d0f69eeb3e876bbeddab6670c3c88ebf7676407bf4c",
            (),
            # Held out until its labels at 79d1b43e; studied since.
            part="dev",
        ),
        "src/timeago",
    ),
    # No dependencies; about 1,000 lines of code in six modules (time zone classes and the
    # functions that load them; the zone files are data); its tests left out.
    ReviewProject(
        Project(
            "pytz",
            "2024.2",
            "2aa355083c50a0f93fa581709deac0c9ad65cca8a9e9beac660adcbd493c798a",
            (),
            # Held out until its labels at 50d760d4; studied since.
            part="dev",
        ),
        "pytz",
    ),
    # No dependencies; about 400 lines in src/pyotp (one-time password classes and their
    # helpers); its test.py left out.
    ReviewProject(
        Project(
            "pyotp",
            "2.9.0",
            "346b6642e0dbdde3b4ff5a930b664ca82abfa116356ed48cc42c7d6590d36f63",
            (),
            # Held out until its labels at 6f5a68c9; studied since.
            part="dev",
        ),
        "src/pyotp",
    ),
    # No dependencies; about 1,000 lines in twenty small modules, one class of string
    # distance or similarity each; their *_test.py modules left out.
    ReviewProject(
        Project(
            "strsimpy",
            "0.2.1",
            "0842eb57f7af86c882a59a1bc8721ec2580a267e563fd0503ced2972040372c9",
            (),
            # Held out until its labels at e7b57cef; studied since.
            part="dev",
        ),
        "strsimpy",
    ),
    # No dependencies; about 300 lines in sqids/sqids.py (one class that encodes numbers
    # as short ids), its blocklist data beside it; its tests left out.
    ReviewProject(
        Project(
            "sqids",
            "0.5.0",
            "647798e7d5bfeb236e7ac4709cfd4cd808630a6c50f80205df17b4c93e560140",
            (),
            # Held out until its labels at c25053fb; studied since.
            part="dev",
        ),
        "sqids",
    ),
    # No dependencies; about 150 lines in one module (Crockford's base32: encode, decode,
    # normalize, with a check symbol).
    ReviewProject(
        Project(
            "base32-crockford",
            "0.3.0",
            "115f5bd32ae32b724035cb02eb65069a8824ea08c08851eb80c8b9f63443a969",
            (),
            # Held out until its labels at 516ecadf (session 64); studied since.
            part="dev",
        ),
        "base32_crockford.py",
    ),
    # No dependencies; about 900 lines in ulid/ (ULID values, their base32 codec, the
    # default, microsecond and monotonic providers and the api modules over them).
    ReviewProject(
        Project(
            "ulid-py",
            "1.1.0",
            "dc6884be91558df077c3011b9fb0c87d1097cb8fc6534b11f310161afd5738f0",
            (),
            # Held out until its labels at 516ecadf (session 64); studied since.
            part="dev",
        ),
        "ulid",
    ),
    # No dependencies; about 200 lines in baseconv.py (a converter of integers between
    # digit alphabets, with ready ones for bases 2 to 64).
    ReviewProject(
        Project(
            "python-baseconv",
            "1.2.2",
            "0539f8bd0464013b05ad62e0a1673f0ac9086c76b43ebf9f833053527cd9931b",
            (),
            # Held out until its labels at 56164a32 (session 65); studied since.
            part="dev",
        ),
        "baseconv.py",
    ),
    # No dependencies; about 900 lines in pydispatch/ (a signal dispatcher: connect,
    # send and disconnect by sender and signal, through weak references).
    ReviewProject(
        Project(
            "pydispatcher",
            "2.0.7",
            "b777c6ad080dc1bad74a4c29d6a46914fa6701ac70f94b0d66fbcfde62f5be31",
            (),
            # Held out until its labels at 56164a32 (session 65); studied since.
            part="dev",
        ),
        "pydispatch",
    ),
    # No dependencies; about 1,250 lines in umsgpack/__init__.py (a MessagePack
    # serializer and deserializer: packing and unpacking by type, Ext types, options).
    ReviewProject(
        Project(
            "u-msgpack-python",
            "2.8.0",
            "b801a83d6ed75e6df41e44518b4f2a9c221dc2da4bcd5380e3a0feda520bc61a",
            (),
            # Held out until its labels at 2bc7da51 (session 65); studied since.
            part="dev",
        ),
        "umsgpack",
    ),
    # Optional dependency only (regex, not installed: it falls back to re); about 280
    # lines in titlecase/__init__.py (title-casing text by the New York Times style
    # rules, with a callback for words of one's own and a command line).
    ReviewProject(
        Project(
            "titlecase",
            "2.4.1",
            "7d83a277ccbbda11a2944e78a63e5ccaf3d32f828c594312e4862f9a07f635f5",
            (),
            # Held out until its labels at 0ef3b06c (session 66); studied since.
            part="dev",
        ),
        "titlecase",
    ),
    # No dependencies; about 1,900 lines in html2text/ (an HTML parser subclass that
    # writes Markdown, its options, its command line and helpers); its tests left out.
    ReviewProject(
        Project(
            "html2text",
            "2025.4.15",
            "948a645f8f0bc3abe7fd587019a2197a12436cd73d0d4908af95bfc8da337588",
            (),
            # Held out until its labels at f6b4243e (session 66); studied since.
            part="dev",
        ),
        "html2text",
    ),
    # No dependencies; about 190 lines of code in unidecode/ (transliteration of Unicode
    # text to ASCII, and a command line) beside 190 modules of tables; its tests left out.
    ReviewProject(
        Project(
            "Unidecode",
            "1.4.0",
            "ce35985008338b676573023acc382d62c264f307c8f7963733405add37ea2b23",
            (),
            # Held out until its labels at 260f268e (session 66); studied since.
            part="dev",
        ),
        "unidecode",
    ),
    # No dependencies; about 5,000 lines in src/marshmallow/ (object serialization:
    # schemas, fields, validators, a class registry and their helpers); its tests left out.
    ReviewProject(
        Project(
            "marshmallow",
            "4.4.0",
            "9e6ffa8511012ca89732324c1c253efd7b4d35632dcbdf80aa793fe01804af3e",
            (),
            # Held out until its labels at f06c76e9 (session 66); studied since.
            part="dev",
        ),
        "src/marshmallow",
    ),
    # No dependencies; about 2,300 lines in src/hamcrest/ (matcher objects for assertions:
    # a core of matchers and descriptions, and a library of them); its tests left out.
    ReviewProject(
        Project(
            "pyhamcrest",
            "2.1.0",
            "c6acbec0923d0cb7e72c22af1926f3e7c97b8e8d69fc7498eabacaf7c975bd9c",
            (),
            # Held out until its labels at 5b2d43dc (session 66); studied since.
            part="dev",
        ),
        "src/hamcrest",
    ),
    # No dependencies; about 700 lines in bracex/__init__.py (Bash-style brace expansion:
    # a parser of sequences and ranges, and its expand and iexpand functions).
    ReviewProject(
        Project(
            "bracex",
            "3.2.2",
            "d18976160b3ba01a57d5c53a5c8c3aa2506efa9e0a3a62467251f82b8f563fde",
            (),
            # Held out until its labels at dede29ed (session 67); studied since.
            part="dev",
        ),
        "bracex",
    ),
    # No dependencies; about 1,150 lines in funcparserlib/ (parser combinators: a parser
    # class with operators, its combinators, a regular-expression tokenizer and its tokens).
    ReviewProject(
        Project(
            "funcparserlib",
            "1.0.1",
            "a2c4a0d7942f7a0e7635c369d921066c8d4cae7f8b5bf7914466bec3c69837f4",
            (),
            # Held out until its labels at 4926e4dc (session 67); studied since.
            part="dev",
        ),
        "funcparserlib",
    ),
    # No dependencies; about 180 lines in pyrfc3339/ (RFC 3339 timestamps: a generator
    # and a parser of datetimes, and a helper for their offsets). Run it whole.
    ReviewProject(
        Project(
            "pyrfc3339",
            "2.1.1",
            "b144d63819bd4c1ebf9cb57e12f4cba567fcf23d6e8f2f829ba9c7810ea4b951",
            (),
            part="heldout",
        ),
        "pyrfc3339",
    ),
    # Optional dependencies only (redis, tornado: not installed); about 800 lines in
    # src/pybreaker/__init__.py (a circuit breaker, its states, listeners and storages).
    ReviewProject(
        Project(
            "pybreaker",
            "1.2.0",
            "18707776316f93a30c1be0e4fec1f8aa5ed19d7e395a218eb2f050c8524fb2dc",
            (),
            # Held out until its labels at 3ef04a66; studied since.
            part="dev",
        ),
        "src/pybreaker",
    ),
    # No dependencies; about 2,000 lines in four modules (an interpreter of Python's ast);
    # its tests left out.
    ReviewProject(
        Project(
            "asteval",
            "1.0.10",
            "46a4ed13cc2e4a29a21418f89dedd57db70d98eb96db0fb4c441d4edb2f5afed",
            (),
            # Held out until its labels at e64ac50f; studied since.
            part="dev",
        ),
        "asteval",
    ),
    # No dependencies; 440 lines in one module of functions; its test_jdcal.py left out.
    ReviewProject(
        Project(
            "jdcal",
            "1.4.1",
            "472872e096eb8df219c23f2689fc336668bdb43d194094b5cc1707e1640acfc8",
            (),
            # Held out until its labels at f15d893a; studied since.
            part="dev",
        ),
        "jdcal.py",
    ),
    # No dependencies; about 3,000 lines, most in the package's __init__ and its locales.
    ReviewProject(
        Project(
            "parsedatetime",
            "2.6",
            "4cb368fbb18a0b7231f4d76119165451c8d2e35951455dfee97c62a87b04d455",
            (),
            # Held out until its labels at b3eabab4; studied since.
            part="dev",
        ),
        "parsedatetime",
    ),
)

PROJECTS: dict[str, ReviewProject] = {p.name: p for p in CORPUS}


def chosen(names: list[str] | None, part: str) -> list[ReviewProject]:
    """The projects named (all when None) that belong to ``part`` (dev, heldout or all)."""
    unknown = sorted(set(names or ()) - set(PROJECTS))
    if unknown:
        raise ReviewCorpusError(
            f"unknown project(s) {', '.join(unknown)}; the corpus has {', '.join(PROJECTS)}"
        )
    picked = [PROJECTS[n] for n in names] if names else list(CORPUS)
    return [p for p in picked if part == "all" or p.part == part]


def _is_test_code(root: Path, rel: PurePosixPath) -> bool:
    name = rel.name
    return (
        any(part in _TEST_FOLDERS for part in rel.parts[:-1])
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
        # A package's suite in one module, not a module of its code so named (pytoml's).
        or (name in ("tests.py", "test.py") and is_suite(root / rel))
    )


def _definitions(text: str) -> int:
    """Functions, methods and classes defined in ``text`` (nested ones too: each is a node)."""
    return sum(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for node in ast.walk(ast.parse(text))
    )


def select_files(
    project: ReviewProject, root: Path, max_definitions: int = MAX_DEFINITIONS
) -> list[str]:
    """The files analysed: the fixed rule of the module docstring, applied under ``root``.

    Files are taken whole, in path order, while their definitions add up to at
    most ``max_definitions`` (the first file always; 0: no limit).
    """
    package = root / project.package
    if package.is_file():
        candidates = [package]
    elif package.is_dir():
        candidates = sorted(package.rglob("*.py"))
    else:
        raise ReviewCorpusError(
            f"{project.key}: {project.package} is not in the sdist; fix the package in "
            "benchmarks/review_lib/corpus.py"
        )
    out: list[str] = []
    total = 0
    for path in candidates:
        rel = PurePosixPath(path.relative_to(root).as_posix())
        if _is_test_code(root, rel) or rel.name == "__main__.py":
            continue
        count = _definitions(path.read_text(encoding="utf-8"))
        if not count:
            continue
        if out and max_definitions and total + count > max_definitions:
            break
        out.append(str(rel))
        total += count
    return out


def _git(repo: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "review benchmark",
        "GIT_AUTHOR_EMAIL": "review@localhost",
        "GIT_COMMITTER_NAME": "review benchmark",
        "GIT_COMMITTER_EMAIL": "review@localhost",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }
    run = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        raise ReviewCorpusError(f"{repo}: git {' '.join(args)} failed: {run.stderr.strip()}")


def remove_tree(path: Path) -> None:
    """Remove ``path``, read-only copies included (project-before is made read-only)."""
    if not path.exists():
        return
    for folder, dirs, files in os.walk(path):
        for name in [*dirs, *files]:
            child = Path(folder) / name
            if not child.is_symlink():
                child.chmod(child.stat().st_mode | stat.S_IWUSR)
    path.chmod(path.stat().st_mode | stat.S_IWUSR)
    shutil.rmtree(path)


def _tree(root: Path) -> dict[str, bytes]:
    """The project's files and bytes, without git's, Remora's or Python's caches."""
    skip = {".git", ".remora", "__pycache__"}
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not skip & set(path.relative_to(root).parts)
    }


def prepare(
    project: ReviewProject, dest: Path, max_definitions: int = MAX_DEFINITIONS, cache: Path = CACHE
) -> list[str]:
    """The sdist at ``dest``: own tests out, every docstring stripped, one git commit.

    Returns the files to analyse. Every Python file of the import package loses
    its docstrings (not only the analysed ones), so no documented neighbour lends
    the agents its words; files outside it (``setup.py``, examples whose usage
    text is their docstring) are left as they are. A ``dest`` already prepared
    with the same bytes is kept with its ``.remora``, so ``remora analyze`` keeps
    the results of a run whose inputs are unchanged (an interrupted run resumes).
    """
    source = fetch(project.pin, cache)
    fresh = dest.parent / f".{dest.name}.new"
    remove_tree(fresh)
    dest.parent.mkdir(parents=True, exist_ok=True)
    remove_own_tests(copy_project(source, fresh))
    package = fresh / project.package
    for path in [package] if package.is_file() else sorted(package.rglob("*.py")):
        rel = path.relative_to(fresh).as_posix()
        text = path.read_text(encoding="utf-8")
        try:
            path.write_text(strip_docstrings(text, f"{project.key}/{rel}"), encoding="utf-8")
        except StripError as error:
            raise ReviewCorpusError(str(error)) from error
    files = select_files(project, fresh, max_definitions)
    if not files:
        raise ReviewCorpusError(f"{project.key}: the file rule selected nothing")
    if (dest / ".git").is_dir() and _tree(dest) == _tree(fresh):
        remove_tree(fresh)
        return files
    remove_tree(dest)
    fresh.rename(dest)
    _git(dest, "init", "-q", "-b", "main")
    _git(dest, "add", "-A")
    _git(dest, "commit", "-q", "-m", f"{project.key}, docstrings stripped, own tests left out")
    return files


def read_only_copy(repo: Path, dest: Path) -> None:
    """``repo`` as it was before the analysis, without git or Remora state, made read-only."""
    remove_tree(dest)
    shutil.copytree(repo, dest, ignore=shutil.ignore_patterns(".git", ".remora", "__pycache__"))
    for folder, dirs, files in os.walk(dest):
        for name in files:
            (Path(folder) / name).chmod(0o444)
        for name in dirs:
            (Path(folder) / name).chmod(0o555)
    dest.chmod(0o555)


__all__ = [
    "CACHE",
    "CORPUS",
    "MAX_DEFINITIONS",
    "PARTS",
    "PROJECTS",
    "ReviewCorpusError",
    "ReviewProject",
    "chosen",
    "prepare",
    "read_only_copy",
    "remove_tree",
    "select_files",
]
