"use strict";
// The compiled addon (node-gyp rebuild at install); throws if it was not built.
module.exports = require("./build/Release/malloc_trim.node");
