module.exports = { ...require("../../jest.preset.js"), globalSetup: "<rootDir>/mongo-check.js" };
