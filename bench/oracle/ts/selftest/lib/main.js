'use strict'
const { Sub } = require('./util.js')
const more = require('./more.js')

new Sub().run()
more.viaExports()
