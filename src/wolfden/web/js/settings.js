// The settings dialog: narration voice, sounds, music. Kept on this device only.

import * as audio from "./audio.js";
import { h } from "./dom.js";
import { prefs, setPrefs } from "./store.js";
import * as voice from "./voice.js";

function check(id, label, key, after) {
  const p = prefs();
  const input = h("input", { type: "checkbox", id, checked: Boolean(p[key]), on: { change: () => { setPrefs({ [key]: input.checked }); after && after(); } } });
  return h("div", { class: "field field-check" }, input, h("label", { for: id }, label));
}

function slider(id, label, key, after) {
  const p = prefs();
  const input = h("input", { type: "range", id, min: "0", max: "1", step: "0.05", value: String(p[key]), on: { input: () => { setPrefs({ [key]: Number(input.value) }); after && after(); } } });
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

export function openSettings(app) {
  const dialog = document.getElementById("settings");
  const p = prefs();
  const voiceSelect = h(
    "select",
    { id: "set-voice", on: { change: () => setPrefs({ voiceName: voiceSelect.value }) } },
    h("option", { value: "" }, "the browser's usual voice"),
    voice.voices().map((v) => h("option", { value: v.name, selected: v.name === p.voiceName }, `${v.name} (${v.lang})`)),
  );
  const table = app.you && app.you.role === "table";
  const shared = app.you && app.you.role === "shared";
  dialog.replaceChildren(
    h(
      "form",
      { method: "dialog", class: "settings-form" },
      h("h2", { id: "settings-title" }, "Sound and voice"),
      h("fieldset", {}, h("legend", {}, "Narration"),
        h("p", { class: "help" }, table ? "This table screen reads the public narration aloud (one device in the room speaks: the table screen)." : shared ? "This shared device reads the public narration aloud unless a table screen is here; what is meant for one player is never spoken." : "One device in the room reads the narration aloud: the table screen, else a shared device, else the host's phone. Only narration meant for everyone is ever read; what is meant for you alone is never spoken."),
        check("set-voice-on", "Read the narration aloud", "voice"),
        !table && !shared ? check("set-host-voice", "When I am the host and no table screen or shared device is here, read it aloud on this device", "hostVoice") : null,
        voice.available() ? h("div", { class: "field" }, h("label", { for: "set-voice" }, "Voice"), voiceSelect) : h("p", { class: "help" }, "This browser has no speech synthesis."),
        slider("set-voice-volume", "Voice volume", "voiceVolume"),
        h("button", { type: "button", id: "try-voice", class: "btn btn-small", on: { click: () => voice.speak(["Night falls. Everyone, close your eyes."]) } }, "Try the voice"),
      ),
      !table && !shared
        ? h("fieldset", {}, h("legend", {}, "Privacy"),
            check("set-hide", "Keep my screen hidden until I tap Show (my role, team, word and hand; it hides again by itself)", "hideByDefault", () => window.dispatchEvent(new Event("wolfden:prefs"))))
        : null,
      h("fieldset", {}, h("legend", {}, "Sounds"),
        check("set-sounds", "Sounds (rooster, howl, ticking, chimes)", "sounds", audio.applyVolumes),
        slider("set-sound-volume", "Sound volume", "soundVolume", audio.applyVolumes),
        h("button", { type: "button", id: "try-sound", class: "btn btn-small", on: { click: () => { audio.unlock(); audio.play("chime"); } } }, "Try a sound"),
      ),
      h("fieldset", {}, h("legend", {}, "Music"),
        check("set-music", "Mood music", "music", () => { audio.unlock(); audio.applyVolumes(); audio.setMood(document.documentElement.dataset.mood); }),
        slider("set-music-volume", "Music volume", "musicVolume", audio.applyVolumes),
      ),
      h("p", { class: "help" }, "Animations follow your system's reduced-motion setting."),
      h("button", { type: "submit", class: "btn btn-primary" }, "Done"),
    ),
  );
  dialog.showModal();
}
