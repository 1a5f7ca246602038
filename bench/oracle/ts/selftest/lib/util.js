'use strict'
const { helperJs } = require('./more.js')

class Cmd {
  exec () {
    return helperJs()
  }

  run () {
    return this.exec()
  }
}

class Sub extends Cmd {
  exec () {
    return 1
  }
}

module.exports = { Cmd, Sub }
