"""A trigram language model for the voice loop, built from the grammar Hearth exports (issue 30).

The JSGF grammar of `hearth grammar export --jsgf` holds the sentence shapes of every example with
members, days, clock times, counts and dates as rules. `JsgfSampler` walks those rules choosing
alternatives at random (seeded, so a build is repeatable), which gives many more sentences than
the export's corpus (`--corpus`): every shape with many values. `build_arpa` counts the trigrams of
those sentences and writes an ARPA back-off model with interpolated Witten-Bell smoothing, which
pocketsphinx loads as a second search (`Decoder.add_lm_file`). Unlike the grammar, the model also
gives some probability to word sequences no single example has ("what is jake doing tomorrow"
from "what is" and "jake doing"), so it hears sentences worded otherwise; the voice loop compares
the two hearings rather than trusting either alone.

Only the standard library: nothing here needs more than counting.
"""
import math
import random
import re
from collections import defaultdict

START, END = "<s>", "</s>"

# ---------------------------------------------------------------------------------------------
# JSGF


def jsgf_rules(text):
    """The rules of a JSGF grammar as {name: body}, each body on one line."""
    rules = {}
    for name, body in re.findall(r"(?:public )?<([\w]+)>\s*=\s*(.*?);\s*$", text, flags=re.S | re.M):
        rules[name] = " ".join(body.split())
    return rules


def jsgf_tokens(body):
    """A rule body's tokens: rule references, brackets, bars and words."""
    return re.findall(r"<\w+>|\[|\]|\(|\)|\||[^\s\[\]()|<>]+", body)


def parse_alternatives(tokens, at=0, closing=None):
    """Parses tokens from `at` into ("alt", [sequence, ...]) up to `closing` (a bracket or the end).
    A sequence is a list of items: ("word", w), ("rule", name), ("optional", alt) or an alt."""
    sequences, sequence = [], []
    while at < len(tokens):
        token = tokens[at]
        if token == closing:
            break
        if token == "|":
            sequences.append(sequence)
            sequence = []
            at += 1
        elif token in ("[", "("):
            inner, at = parse_alternatives(tokens, at + 1, "]" if token == "[" else ")")
            sequence.append(("optional", inner) if token == "[" else inner)
            at += 1  # the closing bracket
        elif token.startswith("<"):
            sequence.append(("rule", token[1:-1]))
            at += 1
        else:
            sequence.append(("word", token))
            at += 1
    sequences.append(sequence)
    return ("alt", sequences), at


class JsgfSampler:
    """Random sentences of a JSGF grammar: each alternative of a rule equally likely, each optional
    part said half the time."""

    def __init__(self, text, top="command"):
        self.rules = {name: parse_alternatives(jsgf_tokens(body))[0] for name, body in jsgf_rules(text).items()}
        self.top = top

    def sentence(self, rng):
        """One sentence, as a list of words."""
        words = []
        self._say(self.rules[self.top], rng, words)
        return words

    def _say(self, node, rng, words):
        kind, value = node
        if kind == "word":
            words.append(value)
        elif kind == "rule":
            self._say(self.rules[value], rng, words)
        elif kind == "optional":
            if rng.random() < 0.5:
                self._say(value, rng, words)
        else:  # "alt"
            for item in rng.choice(value):
                self._say(item, rng, words)

    def sample(self, count, seed=30):
        """`count` sentences (lists of words), the same ones for the same seed."""
        rng = random.Random(seed)
        return [words for words in (self.sentence(rng) for _ in range(count)) if words]


# ---------------------------------------------------------------------------------------------
# The language model


def count_ngrams(sentences, order=3):
    """{n: {context: {word: count}}} for n = 1..order, each sentence between <s> and </s>."""
    counts = {n: defaultdict(lambda: defaultdict(int)) for n in range(1, order + 1)}
    for words in sentences:
        padded = [START, *words, END]
        for position in range(1, len(padded)):
            for n in range(1, order + 1):
                if position - n + 1 < 0:
                    break
                context = tuple(padded[position - n + 1:position])
                counts[n][context][padded[position]] += 1
    return counts


def witten_bell(counts, order=3):
    """Interpolated Witten-Bell estimates in back-off form.

    p(w | h) = (c(h w) + T(h) p(w | h')) / (c(h) + T(h)), where T(h) is how many different words
    follow h and h' is h without its first word; the unigrams interpolate with a uniform
    distribution over the vocabulary. A seen n-gram keeps that probability; an unseen one backs off
    to p(w | h') times alpha(h) = T(h) / (c(h) + T(h)), which is exactly the mass the seen words
    leave over, since each seen word's lower-order share is already in its own estimate.

    Returns ({n: {ngram: probability}}, {ngram: back-off weight})."""
    vocabulary = sorted({word for context in counts[1].values() for word in context})
    probabilities = {n: {} for n in range(1, order + 1)}
    backoffs = {}
    unigrams = counts[1][()]
    total, types = sum(unigrams.values()), len(unigrams)
    for word in vocabulary:
        probabilities[1][(word,)] = (unigrams[word] + types / len(vocabulary)) / (total + types)
    for n in range(2, order + 1):
        for context, following in counts[n].items():
            seen, kinds = sum(following.values()), len(following)
            for word, count in following.items():
                lower = probabilities[n - 1][(*context[1:], word)]
                probabilities[n][(*context, word)] = (count + kinds * lower) / (seen + kinds)
            backoffs[context] = kinds / (seen + kinds)
    return probabilities, backoffs


def arpa(probabilities, backoffs, order=3):
    """The model as ARPA text: log10 probabilities, and log10 back-off weights for every n-gram
    below the highest order that is a context. <s> is never predicted: its probability is -99."""
    lines = ["\\data\\"]
    unigram_count = len(probabilities[1]) + 1  # and <s>
    lines += [f"ngram {n}={unigram_count if n == 1 else len(probabilities[n])}" for n in range(1, order + 1)]

    def entry(ngram, probability):
        line = f"{probability:.6f} {' '.join(ngram)}"
        if len(ngram) < order:
            line += f" {math.log10(backoffs[ngram]) if ngram in backoffs else 0.0:.6f}"
        return line

    for n in range(1, order + 1):
        lines += ["", f"\\{n}-grams:"]
        if n == 1:
            lines.append(entry((START,), -99.0))
        lines += [entry(ngram, math.log10(probability)) for ngram, probability in sorted(probabilities[n].items())]
    lines += ["", "\\end\\", ""]
    return "\n".join(lines)


def build_arpa(sentences, order=3):
    """An ARPA back-off model of these sentences (lists of words)."""
    probabilities, backoffs = witten_bell(count_ngrams(sentences, order), order)
    return arpa(probabilities, backoffs, order)


def training_sentences(jsgf_text, corpus_lines=(), samples=5000, seed=30, corpus_weight=3, known=None):
    """The sentences a model is built from: the export's corpus (each `corpus_weight` times, since
    those are the examples as written) and `samples` random sentences of the grammar. With `known`
    (a set of words), a sentence with any other word is left out: the recogniser could not say it."""
    sentences = [line.split() for line in corpus_lines if line.strip()] * corpus_weight
    sentences += JsgfSampler(jsgf_text).sample(samples, seed)
    if known is not None:
        sentences = [words for words in sentences if all(word in known for word in words)]
    return sentences
