#!/usr/bin/env python3
"""Hearth's reference voice loop, offline: speech in, speech out.

    speak a command (espeak-ng)  ->  16 kHz mono (sox)  ->  pocketsphinx, with a language model
    built from the grammar Hearth exports for this family  ->  `hearth serve --stdio`  ->  speak the reply.

Each start re-exports the grammar (`hearth grammar export --jsgf --corpus`), so a member, chore or
reward added since is expected by the recogniser.

--recogniser picks how pocketsphinx decodes (issue 30, "Know when it did not hear"):
  grammar  the exported JSGF; only a whole sentence of it scored at least
           --min-score is passed on, not a partial path.
  ngram    a trigram model built at each start from the export's corpus and --samples random
           sentences of the JSGF (seeded, --seed; ngram.py); a hearing scored at least --min-score
           is passed on, worded like an example or not.
  ngram-first  the same model, judged by its own posterior (the share of the decoding lattice's
           probability that goes through the words heard, low when other words were nearly as likely):
           under --reject-below (0.001) nothing is passed on; otherwise the hearing is sent with that
           posterior as the turn's "confidence", scaled so that --unsure-below (0.02) is Hearth's 0.6,
           under which any change is said back before it is made. When Hearth does not understand
           the words, the N-best list's next different words are tried (--alternatives, 2), each
           sent as unsure. The default: one search, about a tenth of the grammar's time, and it
           hears far more requests worded unlike the grammar's examples.
  both     both searches over each utterance: the grammar's hearing, checked as above, is passed on
           only when the model's means the same (the same words, or the same intent and slots by
           `hearth parse --json`); a disagreement is passed on as nothing.
Whatever is not passed on reaches Hearth as empty text: "Sorry, I didn't catch that."
--send-confidence sends the hearing's score as the turn's "confidence": under 0.6 Hearth says every
change back in the words heard before making it, a booking too.

    voice_loop.py --demo "schedule emma for the dentist on thursday at four p m" "the first one"
    voice_loop.py --db ~/.local/share/hearth/hearth.sqlite --play "where is everyone"
    voice_loop.py --demo --now 2026-02-02T09:00:00-05:00 --check Examples/voice/commands.jsonl --json
    voice_loop.py --demo --now 2026-02-02T09:00:00-05:00 --check Examples/voice/unseen.jsonl --recogniser both

Needs: espeak-ng and sox (Debian), pocketsphinx 5.1.1 (PyPI; its English model is in the wheel).
With --check FILE (JSON lines {"text", "intent", "slots", "session"?, "readback"?}), every command
goes through the whole loop and is graded against what the file expects: the intent, and each slot
the file names with its value (the family and clock being those given, e.g. --demo --now ...). A
command counts as understood when both its typed text and what the recogniser heard parse to that
intent and those slots; every command counts, one whose typed text does not parse among the misses.
The figure is printed, and --floor makes a lower one fail. So are the changes carried out on a
wrong hearing (`acted_wrong`: what was heard meant something else, and the turn made a change rather
than asking, saying it back or failing), the wrong hearings passed on at all (`passed_wrong`), and
the hearings not passed on (`rejected`); Examples/voice/unseen.jsonl holds requests written without
looking at the grammar's examples, to measure on (docs/home-service.md, "Voice loop").
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from ngram import build_arpa, jsgf_rules, jsgf_tokens, training_sentences

VOICE = ["-v", "en-us+f2", "-s", "150"]


def need(tool, package):
    if shutil.which(tool) is None:
        sys.exit(f"voice_loop: '{tool}' is missing: apt-get install -y {package} (or run scripts/setup)")


def load_pocketsphinx():
    try:
        import pocketsphinx  # noqa: F401
    except ImportError:
        sys.exit("voice_loop: the Python package pocketsphinx is missing: python3 -m pip install pocketsphinx==5.1.1")
    return pocketsphinx


class Hearth:
    """The `hearth` binary with this family's options."""

    def __init__(self, binary, family):
        self.binary = binary
        self.family = family

    def run(self, *arguments):
        done = subprocess.run([self.binary, *arguments, *self.family], capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"voice_loop: hearth {' '.join(arguments)} failed: {done.stderr.strip()}")
        return done.stdout

    def parse(self, text, speaker):
        return json.loads(self.run("parse", "--json", "--as", speaker, text))

    def parse_all(self, texts, speaker):
        """The parses of several texts, each in its own process, all at once (they are waited for)."""
        running = [subprocess.Popen([self.binary, "parse", "--json", "--as", speaker, text, *self.family],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for text in texts]
        parses = []
        for text, process in zip(texts, running):
            output, errors = process.communicate()
            if process.returncode != 0:
                sys.exit(f"voice_loop: hearth parse failed: {errors.strip()}")
            parses.append(json.loads(output))
        return parses

    def serve(self):
        return subprocess.Popen([self.binary, "serve", "--stdio", *self.family], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, bufsize=1)


def synthesize(text, path, workdir, voice=None, noise=0.0):
    """espeak-ng's 22 kHz voice, resampled to what the recogniser's model was trained on. sox -R
    keeps the dither the same on every run, so the test is repeatable. `voice` is another espeak-ng
    voice ("en-us+m3"); `noise` mixes in white noise at that amplitude (0.01 is a quiet room's hiss),
    made with a fixed seed so a run is repeatable."""
    raw = os.path.join(workdir, "raw.wav")
    speaking = ["-v", voice, "-s", "150"] if voice else VOICE
    subprocess.run(["espeak-ng", *speaking, "-w", raw, text], check=True, capture_output=True)
    if noise <= 0:
        subprocess.run(["sox", "-R", raw, "-r", "16000", "-c", "1", "-b", "16", path], check=True, capture_output=True)
        return
    clean = os.path.join(workdir, "clean.wav")
    hiss = os.path.join(workdir, "hiss.wav")
    subprocess.run(["sox", "-R", raw, "-r", "16000", "-c", "1", "-b", "16", clean], check=True, capture_output=True)
    length = subprocess.run(["soxi", "-D", clean], check=True, capture_output=True, text=True).stdout.strip()
    subprocess.run(["sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", hiss, "synth", length, "whitenoise", "vol", str(noise)],
                   check=True, capture_output=True)
    subprocess.run(["sox", "-R", "-m", clean, hiss, "-b", "16", path], check=True, capture_output=True)


class Sentences:
    """The exported JSGF as a regular expression: whether a hypothesis is a whole sentence of the
    grammar. pocketsphinx passes on its best partial path when no sentence fits ("add a task to call
    the", "where is take the"); such a hearing is no request."""

    def __init__(self, jsgf_path):
        import re
        with open(jsgf_path) as file:
            rules = jsgf_rules(file.read())
        cache = {}

        def expand(name, depth=0):
            if name in cache:
                return cache[name]
            out = []
            for token in jsgf_tokens(rules[name]):
                if token.startswith("<"):
                    out.append("(?:" + expand(token[1:-1], depth + 1) + ")")
                elif token == "[":
                    out.append("(?:")
                elif token == "]":
                    out.append(")?")
                elif token == "(":
                    out.append("(?:")
                elif token == ")":
                    out.append(")")
                elif token == "|":
                    out.append("|")
                else:
                    out.append(re.escape(token) + " ")
            cache[name] = "".join(out)
            return cache[name]

        self.pattern = re.compile("(?:" + expand("command") + ")")

    def accepts(self, hypothesis):
        return bool(hypothesis) and self.pattern.fullmatch(hypothesis.strip() + " ") is not None


class Hearing:
    """What one search of the recogniser made of an utterance: its words, its score (0-1; longer
    utterances score lower) and its posterior probability (0-1: the share of the decoding lattice's
    probability that goes through these words, so it is low when other word sequences were nearly
    as likely; computed because pocketsphinx's `bestpath` is on, its default)."""

    def __init__(self, text="", score=0.0, posterior=0.0, alternatives=()):
        self.text = text
        self.score = score
        self.posterior = posterior
        # The next-best different word sequences of the search's N-best list, best first.
        self.alternatives = list(alternatives)


class Recogniser:
    """pocketsphinx with the wheel's acoustic model and dictionary, and up to two searches over the
    same audio: "grammar", the exported JSGF (only whole sentences shaped like an example), and
    "ngram", the trigram model built from it (sentences worded otherwise too)."""

    def __init__(self, pocketsphinx, jsgf_path=None, lm_path=None, added_path=None):
        model = os.path.join(pocketsphinx.get_model_path(), "en-us")
        # The wheel's acoustic model and dictionary; the grammar and our model in place of its general language model.
        self.decoder = pocketsphinx.Decoder(hmm=os.path.join(model, "en-us"), dict=os.path.join(model, "cmudict-en-us.dict"),
                                            lm=None, samprate=16000, loglevel="FATAL")
        # The words the grammar needs that the dictionary lacks ("zoe's"), as Hearth wrote them, then the searches.
        if added_path and os.path.exists(added_path):
            with open(added_path) as file:
                for line in file:
                    word, _, phones = line.strip().partition(" ")
                    if word and phones:
                        self.decoder.add_word(word, phones, False)
        if jsgf_path:
            self.decoder.add_jsgf_file("grammar", jsgf_path)
        if lm_path:
            self.decoder.add_lm_file("ngram", lm_path)

    def transcribe(self, wav_path, search="grammar", alternatives=0):
        """The Hearing of one search over a 16 kHz mono WAV file, with up to `alternatives` other
        word sequences from its N-best list."""
        with open(wav_path, "rb") as wav:
            audio = wav.read()[44:]  # a plain 44-byte RIFF header from sox
        self.decoder.activate_search(search)
        self.decoder.start_utt()
        self.decoder.process_raw(audio, full_utt=True)
        self.decoder.end_utt()
        hypothesis = self.decoder.hyp()
        if hypothesis is None:
            return Hearing()
        others = []
        if alternatives:
            # The N-best list repeats a word sequence for each way through the lattice that says it.
            for candidate, _ in zip(self.decoder.nbest(), range(40)):
                words = candidate.hypstr
                if words and words != hypothesis.hypstr and words not in others:
                    others.append(words)
                    if len(others) >= alternatives:
                        break
        return Hearing(hypothesis.hypstr, hypothesis.score, hypothesis.prob, others)


def known_words(dictionary_path, added_path=None):
    """The words the recogniser can say: the dictionary's (not its alternates, "word(2)") and those added."""
    words = set()
    for path in (dictionary_path, added_path):
        if path and os.path.exists(path):
            with open(path) as file:
                words.update(line.split(" ", 1)[0] for line in file if line.strip())
    return words


def build_language_model(grammar_path, corpus_path, lm_path, known, samples=5000, seed=30):
    """Writes the trigram model (ARPA) of the corpus and `samples` random sentences of the grammar."""
    with open(grammar_path) as file:
        jsgf = file.read()
    with open(corpus_path) as file:
        corpus = file.read().splitlines()
    with open(lm_path, "w") as file:
        file.write(build_arpa(training_sentences(jsgf, corpus, samples=samples, seed=seed, known=known)))


def same_meaning(first, second):
    """Whether two parses name the same intent with the same slots."""
    return first.get("intent") == second.get("intent") and (first.get("slots") or {}) == (second.get("slots") or {})


def confidence(posterior, unsure_below):
    """The hearing's posterior as Hearth's "confidence" (0-1), scaled so that a posterior of
    `unsure_below` is Hearth's 0.6, under which a change is said back before it is made: posterior
    ** (log 0.6 / log unsure_below), which keeps the order of hearings and 0 and 1 where they are."""
    import math
    if posterior <= 0:
        return 0.0
    return round(min(1.0, posterior ** (math.log(0.6) / math.log(unsure_below))), 3)


# Under this confidence Hearth says any change back before making it (TurnSource.unsureBelow is 0.6).
UNSURE = 0.5


def judge(mode, grammar, ngram, sentences, min_score, parse, reject_below=0.001):
    """What is passed on to Hearth, and whether a hearing was rejected (issue 30, "Know when it did not hear").

    grammar: the grammar's hearing, passed on only when it is a whole sentence of the grammar (not a
      partial path) scored at least `min_score`.
    ngram: the model's hearing, passed on when scored at least `min_score`.
    ngram-first: the model's hearing, passed on when its posterior is at least `reject_below`.
    both: the grammar's hearing as above, and only when the model's hearing means the same: the same
      text, or text that Hearth parses to the same intent and slots (`parse` takes both texts and
      gives their parses). A disagreement is a sign that neither heard well.

    Returns (text, rejected): text is "" when nothing is passed on; rejected says that something was
    heard and not passed on."""
    heard = [hearing for hearing in (grammar, ngram) if hearing is not None and hearing.text]
    if not heard:
        return "", False
    if mode == "ngram-first":
        return (ngram.text, False) if ngram.posterior >= reject_below else ("", True)
    if mode == "ngram":
        passed = ngram.score >= min_score
        return (ngram.text, False) if passed else ("", True)
    if not grammar.text or not sentences.accepts(grammar.text) or grammar.score < min_score:
        return "", True
    if mode == "both" and ngram.text != grammar.text:
        if not ngram.text or not same_meaning(*parse([grammar.text, ngram.text])):
            return "", True
    return grammar.text, False


# Intents that only ask: carried out on a wrong hearing they say something wrong, but change nothing.
ASKING = {"calendar.find_free_time", "calendar.show", "calendar.check_availability", "checkin.family_status", "chore.list",
          "chore.review_queue", "chore.stats", "dialog.help", "dialog.more", "family.activity", "family.list_members",
          "location.where_is_everyone", "location.where_is", "location.is_at", "message.responses", "message.inbox",
          "points.balance", "reminder.list", "reward.list", "timetable.next", "timetable.now", "timetable.day",
          "timetable.week_type", "travel.estimate"}


def acted_on(reply):
    """Whether a turn changed something: it finished (not a question, not an error) as a request that changes,
    and got as far as carrying it out (its trace has "executing_action": "I can't find 'dishes' on the chore
    list" stops before it, having changed nothing)."""
    return (reply.get("state") == "result_ready" and reply.get("intent") not in ASKING and reply.get("intent") is not None
            and "executing_action" in reply.get("trace", ["executing_action"]))


def percentile(values, share):
    """The nearest-rank percentile of `values` (0 for none)."""
    if not values:
        return 0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-share * len(ordered) // 100) - 1))]


def means(parsed, command):
    """Whether a parse is the command's expected intent with each expected slot's value."""
    slots = parsed.get("slots") or {}
    return parsed.get("intent") == command["intent"] and all(slots.get(name) == value for name, value in command["slots"].items())


def difference(parsed, command):
    if parsed.get("intent") != command["intent"]:
        return f"intent {parsed.get('intent')}, not {command['intent']}"
    slots = parsed.get("slots") or {}
    return "; ".join(f"{name} {json.dumps(slots.get(name))}, not {json.dumps(value)}"
                     for name, value in command["slots"].items() if slots.get(name) != value)


def why(result):
    """Why a command was not understood: its typed text first, then what was heard."""
    command = result["expected"]
    if not result["typed_right"]:
        return "the typed text reads as " + difference(result["typed"], command)
    return "heard as " + difference(result["got"], command)


def missed(result):
    """A command not understood, for the summary: what was said and heard, and why it is a miss."""
    entry = {"said": result["said"], "heard": result["heard"], "why": why(result)}
    if "heard_by_model" in result:
        entry["heard_by_model"] = result["heard_by_model"]
    return entry


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hearth", default=shutil.which("hearth") or ".build/debug/hearth", help="the hearth binary")
    parser.add_argument("--db", help="the family database (else --demo)")
    parser.add_argument("--demo", action="store_true", help="the demo family, in memory")
    parser.add_argument("--now", help="pin the clock (ISO 8601)")
    parser.add_argument("--as", dest="speaker", default=None, help="who speaks (default: the family's owner)")
    parser.add_argument("--play", action="store_true", help="play the replies aloud (else they are only written to files)")
    parser.add_argument("--check", help="JSON lines of commands to run through the loop and score")
    parser.add_argument("--floor", type=float, default=0.0,
                        help="with --check: fail below this share understood (0-1), or when a picked option is not read back")
    parser.add_argument("--json", action="store_true", help="with --check: print the result as JSON")
    parser.add_argument("--keep", help="keep the audio and the grammar in this folder")
    parser.add_argument("--voice", help="the espeak-ng voice that says the commands (default en-us+f2), e.g. en-us+m3")
    parser.add_argument("--noise", type=float, default=0.0, help="white noise mixed into each command at this amplitude (e.g. 0.01)")
    parser.add_argument("--min-score", type=float, default=0.3,
                        help="a hearing the recogniser scores below this (0-1) is not passed on: 'Sorry, I didn't catch that'")
    parser.add_argument("--send-confidence", action="store_true",
                        help="send the recogniser's score as the turn's confidence: under 0.6 Hearth says every change back first")
    parser.add_argument("--recogniser", choices=["grammar", "ngram", "ngram-first", "both"], default="ngram-first",
                        help="grammar: the exported JSGF; ngram: a trigram model built from it; ngram-first: that model, "
                             "judged by its posterior (--reject-below, --unsure-below); both: the grammar's "
                             "hearing, passed on only when the model's means the same (default: ngram-first)")
    parser.add_argument("--reject-below", type=float, default=0.001,
                        help="ngram-first: a hearing whose posterior is below this is not passed on")
    parser.add_argument("--unsure-below", type=float, default=0.02,
                        help="ngram-first: a hearing whose posterior is below this is sent with a confidence under "
                             "Hearth's 0.6, so any change it asks for is said back first")
    parser.add_argument("--alternatives", type=int, default=2,
                        help="ngram-first: how many of the N-best list's next hearings to try when Hearth does not "
                             "understand the best one")
    parser.add_argument("--samples", type=int, default=5000, help="random sentences of the grammar the model is built from")
    parser.add_argument("--seed", type=int, default=30, help="the seed those sentences are drawn with")
    parser.add_argument("commands", nargs="*", help="commands to say, in one conversation")
    options = parser.parse_args()

    need("espeak-ng", "espeak-ng")
    need("sox", "sox")
    pocketsphinx = load_pocketsphinx()
    family = ["--db", options.db] if options.db else ["--demo"]
    if options.now:
        family += ["--now", options.now]
    hearth = Hearth(options.hearth, family)
    speaker = options.speaker or "Lisa" if options.demo else options.speaker

    workdir = options.keep or tempfile.mkdtemp(prefix="hearth-voice-")
    os.makedirs(workdir, exist_ok=True)
    grammar = os.path.join(workdir, "hearth.gram")
    dictionary = os.path.join(pocketsphinx.get_model_path(), "en-us", "cmudict-en-us.dict")
    added = os.path.join(workdir, "added.dict")
    acting = ["--as", options.speaker] if options.speaker else []
    corpus = os.path.join(workdir, "hearth.txt")
    language_model = os.path.join(workdir, "hearth.arpa")
    hearth.run("grammar", "export", "--jsgf", grammar, "--corpus", corpus, "--dictionary", dictionary, "--pronunciations", added,
               *acting)
    mode = options.recogniser
    if mode != "grammar":
        build_language_model(grammar, corpus, language_model, known_words(dictionary, added), options.samples, options.seed)
    model_only = mode in ("ngram", "ngram-first")
    recogniser = Recogniser(pocketsphinx, grammar if not model_only else None, language_model if mode != "grammar" else None,
                            added)
    sentences = Sentences(grammar)

    if options.check:
        with open(options.check) as file:
            commands = [json.loads(line) for line in file if line.strip()]
        for number, command in enumerate(commands, 1):
            if not isinstance(command.get("intent"), str) or not isinstance(command.get("slots"), dict):
                sys.exit(f"voice_loop: {options.check} line {number} ({command.get('text')!r}) names no expected intent and slots")
    else:
        commands = [{"text": text, "session": "voice"} for text in options.commands]

    server = hearth.serve()
    results = []
    try:
        for number, command in enumerate(commands, 1):
            said = command["text"]
            audio = os.path.join(workdir, f"command-{number}.wav")
            synthesize(said, audio, workdir, voice=options.voice, noise=options.noise)
            started = time.monotonic()  # the end of speech: from here to the reply's audio is what a person waits
            by_grammar = recogniser.transcribe(audio, "grammar") if not model_only else None
            by_ngram = (recogniser.transcribe(audio, "ngram", options.alternatives if mode == "ngram-first" else 0)
                        if mode != "grammar" else None)
            heard = (by_ngram if model_only else by_grammar).text
            # Know when it did not hear: a partial path, a low score or two searches that disagree is
            # passed on as nothing, which Hearth answers "Sorry, I didn't catch that." rather than
            # acting on a guess (issue 30).
            passed, rejected = judge(mode, by_grammar, by_ngram, sentences, options.min_score,
                                     lambda texts: hearth.parse_all(texts, speaker or "Lisa"), options.reject_below)
            # Heard, not typed: a change that removes, cancels, deducts or reaches beyond the speaker is
            # said back by Hearth and carried out only on "yes" (issue 30).
            turn = {"id": str(number), "text": passed, "session": command.get("session", f"check-{number}"),
                    "source": "voice"}
            if speaker:
                turn["speaker"] = speaker
            if options.now:
                turn["now"] = options.now
            if mode == "ngram-first" and passed:
                # The model's posterior as Hearth's "confidence": an unsure hearing has any change said back.
                turn["confidence"] = confidence(by_ngram.posterior, options.unsure_below)
            elif options.send_confidence and passed:
                # The recogniser's own score as Hearth's "confidence": under 0.6 every change is said back.
                hearing = by_ngram if mode == "ngram" else by_grammar
                turn["confidence"] = round(min(1.0, max(0.0, hearing.score)), 3)
            server.stdin.write(json.dumps(turn) + "\n")
            server.stdin.flush()
            reply = json.loads(server.stdout.readline())
            if mode == "ngram-first" and passed:
                # The best hearing that Hearth reads as a request: while Hearth did not understand the
                # words (it then changes nothing), the N-best list's next different words are sent,
                # with a confidence under 0.6, so any change they ask for is said back first.
                for number_tried, alternative in enumerate(by_ngram.alternatives, 1):
                    if reply.get("error", {}).get("code") != "not_understood":
                        break
                    passed = alternative
                    turn = dict(turn, id=f"{number}.{number_tried}", text=alternative,
                                confidence=min(turn["confidence"], UNSURE))
                    server.stdin.write(json.dumps(turn) + "\n")
                    server.stdin.flush()
                    reply = json.loads(server.stdout.readline())
            spoken = reply.get("speak") or reply.get("error", {}).get("message", "")
            answer = os.path.join(workdir, f"reply-{number}.wav")
            subprocess.run(["espeak-ng", *VOICE, "-w", answer, spoken], check=True, capture_output=True)
            waited = time.monotonic() - started
            if options.play and shutil.which("play"):
                subprocess.run(["play", "-q", answer], check=False)
            result = {"said": said, "heard": (passed if mode == "ngram-first" and passed else heard) or (by_ngram.text if by_ngram else ""), "intent": reply.get("intent"),
                      "reply": spoken, "rejected": rejected, "latency_ms": round(waited * 1000)}
            if model_only and by_ngram.text:
                result["posterior"] = round(by_ngram.posterior, 4)
            if mode == "both":
                result["heard_by_model"] = by_ngram.text
            if options.check:
                typed = hearth.parse(said, speaker or "Lisa")
                got = hearth.parse(passed, speaker or "Lisa") if passed else {"intent": None, "slots": {}}
                result["expected"] = {"intent": command["intent"], "slots": command["slots"]}
                result["typed"] = typed
                result["got"] = got
                result["typed_right"] = means(typed, command)
                result["right_intent"] = got.get("intent") == command["intent"]
                result["right_slots"] = result["typed_right"] and means(got, command)
                # A wrong hearing carried out as a change: what a read-back, a question or a refusal should stop.
                result["acted_wrong"] = result["typed_right"] and not result["right_slots"] and acted_on(reply)
                # A wrong hearing passed on at all, whatever the turn then did with it.
                result["passed_wrong"] = result["typed_right"] and not result["right_slots"] and bool(passed)
                if "readback" in command:
                    result["read_back"] = command["readback"].lower() in spoken.lower()
            results.append(result)
            if not options.json:
                also = f"\nthe model heard: {by_ngram.text}" if mode == "both" else ""
                print(f"you said:   {said}\nHearth heard: {heard}{also}\nHearth says: {spoken}\n", flush=True)
    finally:
        server.stdin.close()
        server.wait()

    if not options.check:
        return
    right = sum(1 for r in results if r["right_slots"])
    share = right / len(results) if results else 0.0
    readbacks = [r["read_back"] for r in results if "read_back" in r]
    summary = {"commands": len(results), "typed_right": sum(1 for r in results if r["typed_right"]),
               "right_intent": sum(1 for r in results if r["right_intent"]),
               "right_intent_and_slots": right, "share": round(share, 3),
               "read_back": sum(readbacks), "read_back_checked": len(readbacks),
               "acted_wrong": [r["said"] for r in results if r.get("acted_wrong")],
               "passed_wrong": [r["said"] for r in results if r.get("passed_wrong")],
               "rejected": [r["heard"] for r in results if r.get("rejected")],
               "latency_ms": {"median": percentile([r["latency_ms"] for r in results], 50),
                              "p90": percentile([r["latency_ms"] for r in results], 90)},
               "misses": [missed(r) for r in results if not r["right_slots"]]}
    if options.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        print(f"{right} of {len(results)} commands reached the expected intent and slots ({share:.0%}); "
              f"typed text right: {summary['typed_right']}; options read back: {sum(readbacks)} of {len(readbacks)}; "
              f"wrong hearings passed on: {len(summary['passed_wrong'])}, carried out as a change: {len(summary['acted_wrong'])}; "
              f"hearings not passed on: {len(summary['rejected'])}")
        for miss in summary["misses"]:
            print(f"  said {miss['said']!r}, heard {miss['heard']!r}: {miss['why']}")
    if options.floor and (share < options.floor or not all(readbacks)):
        sys.exit(1)


if __name__ == "__main__":
    main()
