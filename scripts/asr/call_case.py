"""The voice call's conversation for the browser test (end2end/asr/call.spec.ts,
run by `make eval-asr`): the five turns of the call spoken by the eval's voice
into one recording for Chromium's fake microphone, and where each turn's
speech ends in it, so the test can time the end of each turn to the first
word of the agent's answer."""

import json
import os
import wave


# The voice call's conversation (end2end/asr/call.spec.ts): what the student
# says, turn by turn; the fourth is said over the agent's answer to the third.
CALL_TURNS = ["我想考北京大学计算机系", "我想做机器学习，导师温和一点", "第一个导师怎么样",
              "我想看看他的详细信息", "好了，谢谢"]
CALL_GAP = 5.0


def write(work, voice, tts_python, out_dir, synthesise, speech_end):
    """The call's conversation as the fake microphone plays it: 0.5 s of
    silence, then each turn spoken by `voice` and CALL_GAP seconds of
    silence after it (time to be answered and to listen again); where in
    the file each turn's speech ends. The audio is made here, at eval
    time, and never committed. `synthesise` and `speech_end` are eval.py's."""
    rows = [{"id": f"call-{i + 1}", "text": t} for i, t in enumerate(CALL_TURNS)]
    synthesise(rows, work, voice, tts_python)
    os.makedirs(out_dir, exist_ok=True)
    dst = os.path.join(out_dir, "call.wav")
    turns, pcm, at = [], b"", 0.5
    params = None
    for row in rows:
        src = os.path.join(work, row["id"] + ".wav")
        with wave.open(src) as w:
            params, rate = w.getparams(), w.getframerate()
            frames = w.readframes(w.getnframes())
        if not pcm:
            pcm = b"\0\0" * int(0.5 * rate)
        turns.append({"text": row["text"], "speech_end": round(at + speech_end(src), 3)})
        pcm += frames + b"\0\0" * int(CALL_GAP * rate)
        at = len(pcm) / 2 / rate
    with wave.open(dst, "wb") as w:
        w.setparams(params)
        w.writeframes(pcm)
    case = {"wav": os.path.abspath(dst), "voice": voice, "turns": turns}
    with open(os.path.join(out_dir, "call.json"), "w", encoding="utf-8") as f:
        json.dump(case, f, ensure_ascii=False, indent=1)
    return case
